import { z } from 'zod';
import type { Asset } from '../../core/video-api.js';
import { compact, opt } from './common.js';

export const AssetWire = z.object({ id: z.string(), url: z.string(), name: opt(z.string()) });
export const toAsset = (wire: z.output<typeof AssetWire>): Asset => compact(wire);
