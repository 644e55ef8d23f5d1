import type {
  CallOptions,
  Episode,
  GeneratedEpisode,
  IdempotentCallOptions,
  Paged,
  PageQuery,
  Series,
  SeriesInput,
  SeriesPatch,
  SeriesSummary,
} from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { DeletedWire, envelope, pagedEnvelope, reqList, toPage } from '../wire/common.js';
import {
  EpisodeWire,
  GeneratedEpisodeWire,
  SeriesSummaryWire,
  SeriesWire,
  toEpisode,
  toSeries,
  toSeriesSummary,
} from '../wire/series.js';
import { idempotentPost } from './idempotent-post.js';

/** /series: automated episode generation and posting. */
export class SeriesResource {
  constructor(private readonly client: Requester) {}

  async create(body: SeriesInput, o: IdempotentCallOptions): Promise<SeriesSummary> {
    const data = await idempotentPost(this.client, { route: '/series', body, schema: SeriesSummaryWire }, o);
    return toSeriesSummary(data, body.name);
  }

  async list(o?: CallOptions): Promise<SeriesSummary[]> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/series', schema: envelope(reqList(SeriesSummaryWire)) },
      o,
    );
    return data.map((item) => toSeriesSummary(item));
  }

  async get(id: string, o?: CallOptions): Promise<Series> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/series/:id', params: { id }, schema: envelope(SeriesWire) },
      o,
    );
    return toSeries(data);
  }

  /** Only the fields sent change; `paused` pauses or resumes generation. */
  async update(id: string, patch: SeriesPatch, o?: CallOptions): Promise<Series> {
    const { data } = await this.client.request(
      { method: 'PATCH', route: '/series/:id', params: { id }, body: patch, schema: envelope(SeriesWire) },
      o,
    );
    return toSeries(data);
  }

  async delete(id: string, o?: CallOptions): Promise<{ deleted: boolean }> {
    const { data } = await this.client.request(
      { method: 'DELETE', route: '/series/:id', params: { id }, schema: envelope(DeletedWire) },
      o,
    );
    return { deleted: data.deleted ?? true };
  }

  /** Generates the next episode now and charges its cost; no body. */
  async generate(id: string, o: IdempotentCallOptions): Promise<GeneratedEpisode> {
    const { data } = await this.client.request(
      {
        method: 'POST',
        route: '/series/:id/generate',
        params: { id },
        idempotencyKey: o.idempotencyKey,
        schema: envelope(GeneratedEpisodeWire),
      },
      o,
    );
    return { projectId: data.projectId };
  }

  async episodes(id: string, q?: PageQuery, o?: CallOptions): Promise<Paged<Episode>> {
    const { data, pagination } = await this.client.request(
      {
        method: 'GET',
        route: '/series/:id/episodes',
        params: { id },
        query: { page: q?.page, limit: q?.limit },
        schema: pagedEnvelope(reqList(EpisodeWire)),
      },
      o,
    );
    return { items: data.map(toEpisode), pagination: toPage(pagination, q ?? {}) };
  }
}
