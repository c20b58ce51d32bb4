import { agentSection } from './agent.bench';
import { clusterSection } from './cluster.bench';
import { androidSection } from './android.bench';
import { dashboardSection } from './dashboard.bench';
import { driversSection } from './drivers.bench';
import { emulatorSection } from './emulator.bench';
import { evidenceSection } from './evidence.bench';
import { floodSection } from './flood.bench';
import { flowsSection } from './flows.bench';
import { gridSection } from './grid.bench';
import { memorySection } from './memory.bench';
import { offlinePlannerSection } from './offline-planner.bench';
import { operationsSection } from './operations.bench';
import { perceptionSection } from './perception.bench';
import { refsSection } from './refs.bench';
import { renderSection } from './render.bench';
import { scaleSection } from './scale.bench';
import { screenshotsSection } from './screenshots.bench';
import { sizesSection } from './sizes.bench';
import { startupSection } from './startup.bench';
import { streamSection } from './stream.bench';
import type { Section } from './support/section';

/** Every section of `npm run bench`, in the order they run. */
export const SECTIONS: readonly Section[] = [
  emulatorSection,
  renderSection,
  operationsSection,
  refsSection,
  screenshotsSection,
  driversSection,
  androidSection,
  gridSection,
  perceptionSection,
  sizesSection,
  scaleSection,
  memorySection,
  offlinePlannerSection,
  agentSection,
  flowsSection,
  floodSection,
  streamSection,
  evidenceSection,
  clusterSection,
  dashboardSection,
  startupSection,
];
