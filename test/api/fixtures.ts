/** Response `data` payloads as the spec (video-api.md v1.1.12) documents them, in both shapes where two exist. */

export const ME = {
  team: { id: 'team_1', name: 'Acme Studio', credits: 340 },
  plan: 'pro',
  auth: { via: 'bearer', keyPrefix: 'sk_live_TE', scopes: ['videos:read', 'videos:write'], legacy: false },
};

export const CREDITS = {
  balance: 340,
  history: [
    {
      id: 'l1',
      credits: -20,
      type: 'spending',
      description: 'Video: Launch',
      createdAt: '2026-02-01T10:00:00Z',
    },
    {
      id: 'l2',
      credits: 500,
      type: 'subscription_grant',
      description: 'Monthly',
      createdAt: '2026-02-01T00:00:00Z',
    },
  ],
};

export const VARIANTS = [
  { id: 'v1', url: 'https://cdn.test/t1.jpg', hookText: 'Wait for it', source: 'ai', score: 91, grade: 'A' },
  {
    id: 'v2',
    url: 'https://cdn.test/t2.jpg',
    hookText: 'You won’t believe',
    source: 'ai',
    score: 77,
    grade: 'B',
  },
  { id: 'v3', url: 'https://cdn.test/t3.jpg', hookText: 'Day one', source: 'ai', score: 60, grade: 'C' },
];

export const VIDEO = {
  id: 'vid_1',
  name: 'Launch teaser',
  platform: 'tiktok',
  model: 'storyboard',
  script: 'Our product launches next week. Here is why it matters.',
  voiceId: 'voice_anna',
  status: 'completed',
  renderedVideoUrl: null,
  thumbnailUrl: 'https://cdn.test/t1.jpg',
  thumbnails: {
    status: 'ready',
    generation: 1,
    aspect: '9:16',
    selectedVariantId: 'v1',
    selectedBy: 'ai',
    variants: VARIANTS,
  },
  youtubePost: { title: 'Launch', description: 'Next week', privacyStatus: 'unlisted' },
  tiktokPost: { title: 'Launch #soon' },
  instagramPost: { caption: 'Launch' },
  xPost: { text: 'Launch!' },
  facebookPost: { description: 'Launch on Facebook' },
  linkedinPost: { description: 'Launch on LinkedIn' },
  threadsPost: { text: 'Launch on Threads' },
  createdAt: '2026-02-01T10:00:00Z',
};

export const VIDEO_LIST_ITEM = {
  id: 'vid_1',
  name: 'Launch teaser',
  platform: 'tiktok',
  model: 'storyboard',
  renderedVideoUrl: 'https://cdn.test/vid_1.mp4',
  thumbnailUrl: 'https://cdn.test/t1.jpg',
  createdAt: '2026-02-01T10:00:00Z',
};

export const STATUS = {
  id: 'vid_1',
  status: 'processing',
  percentCompleted: 40,
  readyForEditing: false,
  errorMessages: [],
  renderedVideoUrl: null,
  events: [{ step: 'voiceover', done: true }],
};

export const SERIES_CONFIG = {
  id: 'ser_1',
  name: 'Daily facts',
  source: 'ai_topics',
  niche: 'science',
  voice: 'voice_anna',
  duration: 60,
  autoPostTime: '09:30',
  postingDays: ['monday', 'wednesday'],
  timezone: 'Europe/Paris',
  brollModel: 'motion_lite',
  youtubePrivacyStatus: 'public',
  paused: false,
  createdAt: '2026-02-01T10:00:00Z',
};

export const ACCOUNTS_NEW = {
  youtube: [
    { authId: 'acc_yt_1', label: 'Acme Channel', isDefault: true },
    { authId: 'acc_yt_2', label: 'Acme Shorts', isDefault: false },
  ],
  tiktok: [],
  x: [{ authId: 'acc_x', label: '@acme', isDefault: true }],
};

export const ACCOUNTS_OLD = {
  youtube: [{ id: 'acc_yt_1', channelName: 'Acme Channel' }],
  instagram: [],
};

export const VOICE_FULL = {
  id: 'voice_anna',
  baseVoiceId: 'base_anna',
  name: 'Anna',
  previewUrl: 'https://cdn.test/anna.mp3',
  labels: { language: 'en', gender: 'female', accent: 'british' },
  isCustom: false,
  isRecommended: true,
  qualityTier: 'premium',
  modelPolicy: 'any',
  targetLanguages: ['en', 'fr'],
};

export const VOICE_SHORT = {
  id: 'voice_clone_1',
  name: 'My clone',
  previewUrl: 'https://cdn.test/c.mp3',
  isCustom: true,
};

export const ANALYTICS_NEW = {
  rangeDays: 28,
  rollup: { rangeDays: 28, viewsGained: 1200, totalViews: 15000, postsSynced: 12, ready: true },
  windows: { d7: { viewsGained: 300, ready: true }, d28: { viewsGained: 1200, ready: true } },
  byPlatform: {
    youtube: { totalViews: 10000, postsSynced: 8, viewsGained28d: 900 },
    tiktok: { totalViews: 5000, postsSynced: 4, viewsGained28d: 300 },
  },
  topPosts: [{ platform: 'youtube', title: 'Launch', views: 4000, postUrl: 'https://youtu.be/x' }],
  totals: { totalViews: 15000, postsSynced: 12, posts7d: 3 },
  timeseriesReady: true,
};

export const ANALYTICS_OLD = {
  totals: { posts: 9, views: 8000, likes: 420 },
  platforms: { youtube: { posts: 5, views: 6000 }, instagram: { posts: 4, views: 2000 } },
};
