/** Response `data` shapes from video-api.md, written for the tests (independently of the simulator). */

export interface LedgerEntry {
  id: string;
  credits: number;
  type: string;
  description: string;
  createdAt: string;
}

export interface Me {
  team: { id: string; name: string; credits: number };
  plan: string;
  auth: { via: string; keyPrefix: string; scopes: string[]; legacy: boolean };
}

export interface Credits {
  balance: number;
  history: LedgerEntry[];
}

export interface VideoCreated {
  id: string;
  name: string;
  model: string;
  status: string;
  creditsUsed: number;
  statusUrl: string;
}

export interface VideoListItem {
  id: string;
  name: string;
  platform: string;
  model: string;
  renderedVideoUrl: string | null;
  thumbnailUrl: string;
  createdAt: string;
}

export interface Variant {
  id: string;
  url: string;
  hookText: string;
  source: string;
  score: number;
  grade: string;
}

export interface Thumbnails {
  status: string;
  generation: number;
  aspect: string;
  selectedVariantId?: string;
  selectedBy?: string;
  variants: Variant[];
}

export interface VideoDetail extends VideoListItem {
  script: string;
  voiceId: string;
  status: string;
  thumbnails: Thumbnails;
  youtubePost?: { title: string; description?: string; privacyStatus: string };
  xPost?: { text: string };
}

export interface CompactThumbnails {
  status: string;
  selectedVariantId?: string;
  selectedBy?: string;
  variants: string[];
}

export interface VideoPatched {
  id: string;
  name: string;
  thumbnailUrl: string;
  thumbnails: CompactThumbnails;
  youtubePost?: { title: string; description?: string; privacyStatus: string };
  tiktokPost?: { title: string };
}

export interface VideoStatus {
  id: string;
  status: string;
  percentCompleted: number;
  readyForEditing: boolean;
  errorMessages: string[];
  renderedVideoUrl: string | null;
}

export interface RenderStarted {
  renderId: string;
  statusUrl: string;
}

export interface Render {
  renderId: string;
  status: string;
  overallProgress: number;
  url?: string;
}

export interface Scheduled {
  taskId: string;
  platforms: string[];
  scheduledTime: string;
}

export interface Published {
  platform: string;
  videoId: string;
  postUrl: string;
}

export interface CalendarEntry {
  id: string;
  projectId: string;
  platform: string;
  status: string;
  scheduledTime: string;
}

export interface SeriesCreated {
  id: string;
  name: string;
  source: string;
  niche?: string;
  createdAt: string;
}

export interface SeriesItem {
  id: string;
  name: string;
  source: string;
  niche?: string;
  paused: boolean;
}

export interface Episode {
  id: string;
  projectId: string;
  status: string;
  scheduledTime: string;
}

export interface Account {
  authId: string;
  label: string;
  isDefault: boolean;
}

export interface Voice {
  id: string;
  baseVoiceId: string;
  name: string;
  previewUrl: string;
  labels: { language: string; gender: string; accent: string };
  isCustom: boolean;
  isRecommended: boolean;
  qualityTier: string;
  modelPolicy: string;
  targetLanguages: string[];
}

export interface Analytics {
  rangeDays: number;
  rollup: { rangeDays: number; viewsGained: number; totalViews: number; postsSynced: number; ready: boolean };
  windows: { d7: { viewsGained: number; ready: boolean }; d28: { viewsGained: number; ready: boolean } };
  byPlatform: Record<string, { totalViews: number; postsSynced: number; viewsGained28d: number }>;
  topPosts: { platform: string; title: string; views: number; postUrl: string }[];
  totals: { totalViews: number; postsSynced: number; posts7d: number };
  timeseriesReady: boolean;
}
