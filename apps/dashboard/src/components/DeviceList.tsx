import type { DeviceStatus } from '../types';

function stateText(device: DeviceStatus): string {
  if (device.state === 'busy') return device.owner ? `busy (${device.owner.host}, pid ${device.owner.pid})` : 'busy';
  return device.note ? `${device.state}: ${device.note}` : device.state;
}

export function DeviceList(props: { devices: DeviceStatus[] | undefined; selected: string | undefined; onSelect: (id: string) => void }) {
  return (
    <section class="card" aria-labelledby="devices-title">
      <h2 id="devices-title">Devices</h2>
      {props.devices === undefined ? (
        <p class="muted">Loading…</p>
      ) : props.devices.length === 0 ? (
        <p class="muted">No device is registered.</p>
      ) : null}
      <ul class="device-list" data-testid="device-list">
        {(props.devices ?? []).map((device) => (
          <li key={device.id}>
            <button
              type="button"
              class="device-item"
              data-testid="device-item"
              data-device={device.id}
              aria-pressed={device.id === props.selected}
              onClick={() => props.onSelect(device.id)}
            >
              <span class="device-name">{device.name}</span>
              <span class={`state state-${device.state}`}>{stateText(device)}</span>
              <span class="muted small">
                {[device.model, device.osVersion && `${device.platform === 'ios' ? 'iOS' : 'Android'} ${device.osVersion}`, device.id]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
