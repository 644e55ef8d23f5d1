import { z } from 'zod';
import { OPTION_KINDS, OPTIONS } from '../catalog.js';
import type { AssetRec } from '../records.js';
import type { Route } from '../router.js';
import { httpUrl } from '../schemas/common.js';
import { iso } from '../views.js';
import { defineRoute, ok } from './define.js';
import { voicesFor } from './team-voices.js';

const assetBody = z.strictObject({
  url: httpUrl,
  name: z.string().min(1).max(120).optional(),
  fileType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, { message: 'must be a MIME type such as video/mp4' })
    .optional(),
});

/** Voices, option catalogs and media asset registration. */
export const catalogRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    pattern: '/voices',
    scope: 'catalog:read',
    handle: ({ team }) => ok(voicesFor(team)),
  }),

  defineRoute({
    method: 'GET',
    pattern: '/options',
    scope: 'catalog:read',
    query: z.strictObject({ kind: z.enum(OPTION_KINDS).optional() }),
    handle: (_ctx, { query }) => {
      // Without `kind` the spec only says "lists the available kinds"; an object leaves room to grow.
      if (query.kind === undefined) return ok({ kinds: [...OPTION_KINDS] });
      return ok({ kind: query.kind, items: OPTIONS[query.kind].map((item) => ({ ...item })) });
    },
  }),

  defineRoute({
    method: 'POST',
    pattern: '/assets',
    scope: 'assets:write',
    idempotent: true,
    body: assetBody,
    handle: ({ engine, team, now }, { body }) => {
      const asset: AssetRec = {
        id: engine.newId(now),
        teamId: team.id,
        url: body.url,
        name:
          body.name ??
          (new URL(body.url).pathname.split('/').filter(Boolean).pop() || body.url).slice(0, 120),
        createdAt: now,
        ...(body.fileType === undefined ? {} : { fileType: body.fileType }),
      };
      engine.store.assets.set(asset.id, asset);
      return ok(
        {
          id: asset.id,
          url: asset.url,
          name: asset.name,
          ...(asset.fileType ? { fileType: asset.fileType } : {}),
          createdAt: iso(now),
        },
        201,
      );
    },
  }),
];
