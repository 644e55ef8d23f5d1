/**
 * The video a command acts on, taking the rest of the text so a name with spaces needs no quotes
 * (`show Octopus facts`). Shared by status, show, thumbnails, render and delete.
 */
export const VIDEO_REST_OPTION = {
  name: 'video',
  kind: 'video',
  positional: true,
  rest: true,
  required: true,
  description: 'Video id, name (or its start) or `last`',
} as const;
