/**
 * Discord's documented limits, in one place: the renderer truncates to them, the command builder checks
 * against them, and the tests assert every payload stays inside them.
 */
export const DISCORD = {
  /** Application commands. */
  commandName: /^[-_\p{L}\p{N}]{1,32}$/u,
  commandDescription: 100,
  optionsPerCommand: 25,
  choicesPerOption: 25,
  choiceName: 100,
  choiceValue: 100,
  /** name + description + choice names/values of a command and everything in it. */
  commandTotalChars: 8000,
  stringOptionMaxLength: 6000,

  /** Messages. */
  content: 2000,
  embedsPerMessage: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  embedTotalChars: 6000,

  /** Components. */
  actionRows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  customId: 100,
  selectOptions: 25,
  selectOptionLabel: 100,
  selectOptionValue: 100,
  selectOptionDescription: 100,
  selectPlaceholder: 150,
  linkUrl: 512,

  /** Components V2 messages (cards). */
  messageComponents: 40,
  /** Characters across all the text displays of a message. */
  textDisplayTotal: 4000,
  /** A table's lines on a card: whole rows, leaving the rest of the 4000 to the card's other text. */
  tableText: 2800,
  galleryItems: 10,
  /** Charts drawn as images on one card (the core sends at most two). */
  chartsPerCard: 2,
  mediaDescription: 1024,
  /** A card's title heading (the embed title's limit, kept). */
  cardTitle: 256,

  /** Modals. */
  modalTitle: 45,
  modalComponents: 5,
  labelText: 45,
  labelDescription: 100,
  textInputPlaceholder: 100,
  textInputValue: 4000,
  textDisplay: 4000,

  /** Autocomplete answers and threads. */
  autocompleteChoices: 25,
  threadName: 100,
  nonce: 25,
} as const;

/** Cuts `text` to `max` characters, ending with an ellipsis when something was cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}
