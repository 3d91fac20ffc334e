/**
 * The pages' code, loaded once per route and kept: `loadRoute` starts (or joins) the download,
 * `loadedRoute` answers the component synchronously once it is there. The router renders a page
 * only when its module is loaded rather than through React.lazy: a suspended lazy page is
 * revealed by React at the earliest 300 ms after its fallback was shown (React 19's fallback
 * throttle), which held the first page back by that much on a cold load.
 */
import type { ComponentType } from 'react';
import type { PageRoute } from './types';

const loading = new Map<PageRoute, Promise<ComponentType>>();
const loaded = new Map<PageRoute, ComponentType>();

/** Starts loading the route's page (once; a failed load is tried again on the next call). */
export function loadRoute(route: PageRoute): Promise<ComponentType> {
  let page = loading.get(route);
  if (!page) {
    page = route.load().then((module) => {
      loaded.set(route, module.default);
      return module.default;
    });
    page.catch(() => loading.delete(route));
    loading.set(route, page);
  }
  return page;
}

/** The route's page component when its module has loaded, else undefined. */
export function loadedRoute(route: PageRoute): ComponentType | undefined {
  return loaded.get(route);
}
