import type { Route } from '../router';
import { appRoutes } from './app-routes';
import { deviceRoutes } from './device-routes';
import { elementRoutes } from './element-routes';
import { gestureRoutes } from './gesture-routes';
import { screenRoutes } from './screen-routes';
import { sessionRoutes } from './session-routes';
import { systemRoutes } from './system-routes';

/** Every WDA route the virtual iPhone answers, as data. */
export const WDA_ROUTES: readonly Route[] = [
  ...sessionRoutes,
  ...screenRoutes,
  ...elementRoutes,
  ...gestureRoutes,
  ...appRoutes,
  ...deviceRoutes,
  ...systemRoutes,
];
