/**
 * Views of a `VideoApi` that change how its methods are called (background priority, tracking writes), built
 * from one table per view. The table is typed against `VideoApi`, so a new endpoint fails to compile until
 * every view lists it.
 */
import type { VideoApi } from './video-api.js';

/** One value per endpoint of the client (`videos.create` → …). */
export type ApiIndex<T> = { [G in keyof VideoApi]: { [M in keyof VideoApi[G]]: T } };

export type AnyMethod = (...args: unknown[]) => unknown;

/** A view of `api` whose every method is `wrap(call, value)`: `call` invokes the original on its resource. */
export function mapApi<T>(
  api: VideoApi,
  index: ApiIndex<T>,
  wrap: (call: AnyMethod, value: T) => AnyMethod,
): VideoApi {
  const wrapped: Record<string, Record<string, AnyMethod>> = {};
  for (const [group, methods] of Object.entries(index)) {
    const target = (api as unknown as Record<string, Record<string, AnyMethod>>)[group];
    if (!target) continue;
    const out: Record<string, AnyMethod> = {};
    for (const [method, value] of Object.entries(methods as Record<string, T>)) {
      const fn = target[method];
      if (typeof fn !== 'function') continue;
      out[method] = wrap((...args: unknown[]) => fn.apply(target, args), value);
    }
    wrapped[group] = out;
  }
  return wrapped as unknown as VideoApi;
}
