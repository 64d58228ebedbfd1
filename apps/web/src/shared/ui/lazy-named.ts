import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A component of a module loaded the first time it renders (React.lazy wants a default export; ours are named). For
 * what a page opens on demand (a dialog, a side panel), so its code is neither downloaded nor run before the page's
 * first paint. Render it under a Suspense (ModalProvider has one for every modal).
 */
// `any` as React.lazy's own bound: a component of whatever props; the result keeps the component's real type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
