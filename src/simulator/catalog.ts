/** Catalog contents served by GET /voices and GET /options; values the create bodies are checked against. */
import { MODEL_CREDITS, MODELS, type Model } from './vocabulary.js';

export interface VoiceRec {
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

const PREVIEW_BASE = 'https://cdn.sim.reelbot.invalid/voices';

/** A stock voice from its labels; recommended, tier and target languages only where not the default. */
function stockVoice(
  id: string,
  name: string,
  profile: VoiceRec['labels'] & { recommended?: boolean; tier?: string; targets?: string[] },
): VoiceRec {
  const { recommended, tier, targets, ...labels } = profile;
  return {
    id,
    baseVoiceId: `base_${id}`,
    name,
    previewUrl: `${PREVIEW_BASE}/${id}.mp3`,
    labels,
    isCustom: false,
    isRecommended: recommended ?? false,
    qualityTier: tier ?? 'standard',
    modelPolicy: 'multilingual_v2',
    targetLanguages: targets ?? [labels.language],
  };
}

export const STOCK_VOICES: readonly VoiceRec[] = [
  stockVoice('voice_aria_en', 'Aria', {
    language: 'en',
    gender: 'female',
    accent: 'american',
    recommended: true,
    tier: 'premium',
    targets: ['en', 'es', 'fr'],
  }),
  stockVoice('voice_marcus_en', 'Marcus', {
    language: 'en',
    gender: 'male',
    accent: 'american',
    recommended: true,
    tier: 'premium',
  }),
  stockVoice('voice_oliver_en', 'Oliver', { language: 'en', gender: 'male', accent: 'british' }),
  stockVoice('voice_isla_en', 'Isla', { language: 'en', gender: 'female', accent: 'australian' }),
  stockVoice('voice_lucia_es', 'Lucía', {
    language: 'es',
    gender: 'female',
    accent: 'castilian',
    recommended: true,
  }),
  stockVoice('voice_diego_es', 'Diego', { language: 'es', gender: 'male', accent: 'mexican' }),
  stockVoice('voice_camille_fr', 'Camille', { language: 'fr', gender: 'female', accent: 'parisian' }),
  stockVoice('voice_lukas_de', 'Lukas', { language: 'de', gender: 'male', accent: 'standard' }),
  stockVoice('voice_beatriz_pt', 'Beatriz', { language: 'pt', gender: 'female', accent: 'brazilian' }),
  stockVoice('voice_haruto_ja', 'Haruto', { language: 'ja', gender: 'male', accent: 'tokyo' }),
  stockVoice('voice_priya_hi', 'Priya', { language: 'hi', gender: 'female', accent: 'delhi' }),
];

/** The team's cloned voice (one per team) — GET /voices lists it with isCustom true. */
export function customVoice(id: string, teamName: string): VoiceRec {
  return {
    id,
    baseVoiceId: 'voice_aria_en',
    name: `${teamName} narrator (cloned)`,
    previewUrl: `${PREVIEW_BASE}/${id}.mp3`,
    labels: { language: 'en', gender: 'neutral', accent: 'custom' },
    isCustom: true,
    isRecommended: false,
    qualityTier: 'custom',
    modelPolicy: 'multilingual_v2',
    targetLanguages: ['en'],
  };
}

export const OPTION_KINDS = [
  'sources',
  'styles',
  'niches',
  'languages',
  'durations',
  'models',
  'captionThemes',
  'music',
  'backgrounds',
  'subreddits',
] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

export interface OptionItem {
  value: string;
  name: string;
  credits?: number;
}

const MODEL_NAMES: Record<Model, string> = {
  storyboard: 'Storyboard',
  motion_lite: 'Motion Lite',
  motion_pro: 'Motion Pro',
};

const pairs = (entries: [string, string][]): OptionItem[] =>
  entries.map(([value, name]) => ({ value, name }));

export const OPTIONS: Record<OptionKind, OptionItem[]> = {
  sources: pairs([
    ['ai_story', 'AI-written story'],
    ['reddit', 'Reddit post'],
    ['custom_prompt', 'Custom prompt'],
    ['wikipedia', 'Wikipedia article'],
    ['news', 'Trending news'],
  ]),
  styles: pairs([
    ['cinematic', 'Cinematic'],
    ['anime', 'Anime'],
    ['watercolor', 'Watercolor'],
    ['comic', 'Comic book'],
    ['photorealistic', 'Photorealistic'],
    ['minimalist', 'Minimalist'],
  ]),
  niches: pairs([
    ['scary_stories', 'Scary stories'],
    ['history', 'History'],
    ['fun_facts', 'Fun facts'],
    ['motivation', 'Motivation'],
    ['true_crime', 'True crime'],
    ['science', 'Science'],
    ['personal_finance', 'Personal finance'],
  ]),
  languages: pairs([
    ['en', 'English'],
    ['es', 'Spanish'],
    ['fr', 'French'],
    ['de', 'German'],
    ['pt', 'Portuguese'],
    ['it', 'Italian'],
    ['ja', 'Japanese'],
    ['hi', 'Hindi'],
  ]),
  // Values are strings like every documented catalog value; POST /series takes the number itself.
  durations: pairs([
    ['30', '30 seconds'],
    ['60', '60 seconds'],
    ['90', '90 seconds'],
  ]),
  models: MODELS.map((value) => ({ value, name: MODEL_NAMES[value], credits: MODEL_CREDITS[value] })),
  captionThemes: pairs([
    ['bold_pop', 'Bold pop'],
    ['clean_white', 'Clean white'],
    ['karaoke', 'Karaoke highlight'],
    ['neon', 'Neon'],
    ['minimal', 'Minimal'],
  ]),
  music: pairs([
    ['upbeat', 'Upbeat'],
    ['calm', 'Calm'],
    ['dramatic', 'Dramatic'],
    ['suspense', 'Suspense'],
    ['lofi', 'Lo-fi'],
  ]),
  backgrounds: pairs([
    ['minecraft_parkour', 'Minecraft parkour'],
    ['subway_runner', 'Subway runner'],
    ['satisfying_slime', 'Satisfying slime'],
    ['ocean_drone', 'Ocean drone footage'],
    ['city_night', 'City at night'],
  ]),
  subreddits: pairs([
    ['AskReddit', 'r/AskReddit'],
    ['tifu', 'r/tifu'],
    ['nosleep', 'r/nosleep'],
    ['AmItheAsshole', 'r/AmItheAsshole'],
    ['todayilearned', 'r/todayilearned'],
  ]),
};

export function isOptionValue(kind: OptionKind, value: string): boolean {
  return OPTIONS[kind].some((item) => item.value === value);
}
