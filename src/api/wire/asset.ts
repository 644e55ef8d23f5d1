import { z } from 'zod';
import type { Asset, AssetInput } from '../../core/video-api/video-api.js';
import { compact, optName, optUrl, reqId } from './common.js';

export const AssetWire = z.object({ id: reqId(), url: optUrl(), name: optName() });

/** A url or name the service left out is the one sent. */
export const toAsset = (wire: z.output<typeof AssetWire>, sent: AssetInput): Asset =>
  compact({ id: wire.id, url: wire.url ?? sent.url, name: wire.name ?? sent.name });
