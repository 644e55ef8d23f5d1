import type {
  CallOptions,
  CaptionInput,
  Codec,
  CreatedCaption,
  CreatedVideo,
  CreateVideoInput,
  IdempotentCallOptions,
  Paged,
  PageQuery,
  PatchedVideo,
  RenderStarted,
  ThumbnailSelection,
  Video,
  VideoListItem,
  VideoPatch,
  VideoStatus,
} from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { DeletedWire, envelope, pagedEnvelope, reqList, toPage } from '../wire/common.js';
import { toWireBlocks } from '../wire/post-blocks.js';
import {
  CreatedCaptionWire,
  CreatedVideoWire,
  PatchedVideoWire,
  RenderStartedWire,
  ThumbnailSelectionWire,
  toCreatedCaption,
  toCreatedVideo,
  toPatchedVideo,
  toRenderStarted,
  toThumbnailSelection,
  toVideo,
  toVideoListItem,
  toVideoStatus,
  VideoListItemWire,
  VideoStatusWire,
  VideoWire,
} from '../wire/video.js';
import { idempotentPost } from './idempotent-post.js';

/** /videos: generation, captioning, metadata, thumbnails, status and rendering. */
export class VideosResource {
  constructor(private readonly client: Requester) {}

  /** Charges the model's credits now; the Idempotency-Key makes a retry or double click charge once. */
  async create(body: CreateVideoInput, o: IdempotentCallOptions): Promise<CreatedVideo> {
    const data = await idempotentPost(this.client, { route: '/videos', body, schema: CreatedVideoWire }, o);
    return toCreatedVideo(data, body.name);
  }

  async caption(body: CaptionInput, o: IdempotentCallOptions): Promise<CreatedCaption> {
    const data = await idempotentPost(
      this.client,
      { route: '/videos/captions', body, schema: CreatedCaptionWire },
      o,
    );
    return toCreatedCaption(data);
  }

  async list(q?: PageQuery & { archived?: boolean }, o?: CallOptions): Promise<Paged<VideoListItem>> {
    const { data, pagination } = await this.client.request(
      {
        method: 'GET',
        route: '/videos',
        query: { page: q?.page, limit: q?.limit, archived: q?.archived },
        schema: pagedEnvelope(reqList(VideoListItemWire)),
      },
      o,
    );
    return { items: data.map(toVideoListItem), pagination: toPage(pagination, q ?? {}) };
  }

  async get(id: string, o?: CallOptions): Promise<Video> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/videos/:id', params: { id }, schema: envelope(VideoWire) },
      o,
    );
    return toVideo(data);
  }

  /** Name and post metadata; `posts.youtube` goes out as `youtubePost`, and so on. */
  async update(id: string, patch: VideoPatch, o?: CallOptions): Promise<PatchedVideo> {
    const body = { name: patch.name, ...toWireBlocks(patch.posts ?? {}) };
    const { data } = await this.client.request(
      { method: 'PATCH', route: '/videos/:id', params: { id }, body, schema: envelope(PatchedVideoWire) },
      o,
    );
    return toPatchedVideo(data, { id, name: patch.name });
  }

  async delete(id: string, o?: CallOptions): Promise<{ deleted: boolean }> {
    const { data } = await this.client.request(
      { method: 'DELETE', route: '/videos/:id', params: { id }, schema: envelope(DeletedWire) },
      o,
    );
    return { deleted: data.deleted ?? true };
  }

  async selectThumbnail(id: string, variantId: string, o?: CallOptions): Promise<ThumbnailSelection> {
    const { data } = await this.client.request(
      {
        method: 'POST',
        route: '/videos/:id/thumbnail',
        params: { id },
        body: { variantId },
        schema: envelope(ThumbnailSelectionWire),
      },
      o,
    );
    return toThumbnailSelection(data, id);
  }

  async status(id: string, o?: CallOptions): Promise<VideoStatus> {
    const { data } = await this.client.request(
      { method: 'GET', route: '/videos/:id/status', params: { id }, schema: envelope(VideoStatusWire) },
      o,
    );
    return toVideoStatus(data, id);
  }

  async render(id: string, body: { codec?: Codec }, o: IdempotentCallOptions): Promise<RenderStarted> {
    const { data } = await this.client.request(
      {
        method: 'POST',
        route: '/videos/:id/render',
        params: { id },
        body,
        idempotencyKey: o.idempotencyKey,
        schema: envelope(RenderStartedWire),
      },
      o,
    );
    return toRenderStarted(data);
  }
}
