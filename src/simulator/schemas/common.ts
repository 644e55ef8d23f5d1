import { z } from 'zod';

/** A public http(s) URL (captions, assets, publish-by-URL). */
export const httpUrl = z.url({ protocol: /^https?$/ });

/** A string that must not be empty, e.g. a required title. */
export const nonEmpty = z.string().min(1);
