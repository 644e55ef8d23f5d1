/**
 * The core's one entry for adapters: everything `adapters/**` and the platform table (`src/adapters.ts`) use
 * from the core, and nothing else. Core files import each other directly, never through this file, so no
 * module inside the core waits on the entry at load time (an ESM cycle through it could leave a binding
 * undefined). Moving a core file changes a line here, not the adapters; test/core/core-entry.test.ts fails
 * when an adapter reaches past the entry.
 */

// Ports: what an adapter implements or is handed.

export {
  type ChannelAccess,
  type ChatAdapter,
  type ChatCapabilities,
  ChatDeliveryError,
  type ChatPlatform,
  type ChatSender,
  type Clock,
  type ConversationAddress,
  type ConversationMembership,
  type FileLinks,
  type InteractionEntry,
  type Logger,
  type MessageAddress,
  type Store,
  type TextFile,
  type UserAddress,
} from './ports/index.js';

// Addresses: the opaque `platform:…` strings for users, conversations and messages.

export {
  conversationAddress,
  DM_WORKSPACE,
  decodeAddress,
  groupReference,
  messageAddress,
  userAddress,
} from './ports/address.js';

// Dispatch: the bot adapters feed, the request they build, and how failures come back.

export type { Bot } from './dispatch/bot.js';
export {
  channelsOf,
  type Mentioned,
  mentionsOf,
  type RequestInfo,
  UserError,
  userError,
} from './dispatch/context.js';
export { abortAfter, within } from './dispatch/deadline.js';
export { describeError, errorMessage } from './dispatch/describe-error.js';
export { errorCard } from './dispatch/error-card.js';
export { failureReply } from './dispatch/failure-reply.js';
export { err, ok, type Result } from './dispatch/result.js';
export { forgetWorkspace } from './workspace/forget-workspace.js';
export { refusedWhere, WorkspaceGate } from './workspace/workspace-gate.js';

// Commands: their specs, references and parsing, for registering and reading typed commands.

export { MODULES } from './commands/index.js';
export { CREATE_FROM_MESSAGE_ACTION } from './commands/videos/create-from.js';
export { groupSummary } from './parse/command-groups.js';
export { type CommandSpec, type OptionSpec, type RawArgs, splitName } from './parse/command-spec.js';
export { createRegistry, parseCommandText } from './parse/parse-command.js';
export { tokenize } from './parse/tokenize.js';
export { type CommandArg, type CommandRef, typedCommand, type UsageOption } from './text/command-ref.js';

// Cards: what the core answers with, for each adapter to render.

export { withoutAttachment } from './format/csv.js';
export { progressBar } from './live/video-card.js';
export type {
  Button,
  Card,
  Confirm,
  Control,
  Field,
  FileInput,
  Form,
  FormAlert,
  FormInput,
  Image,
  Progress,
  Response,
  Section,
  Select,
  SelectOption,
  Tone,
  Video,
  Visibility,
} from './text/cards.js';
export { sectionWords } from './text/cards.js';

// Text: typed pieces (commands, mentions, links) and the message table's wording.

export { say } from './text/messages.js';
export {
  type CardText,
  code,
  dropMarkup,
  joinText,
  link,
  literal,
  type MentionTarget,
  mapCommands,
  md,
  mention,
  type Piece,
  parseMention,
  pieceSource,
  plainPiece,
  restore,
  shield,
  toPlainText,
} from './text/text.js';

// Long text: scripts typed in parts or attached as files.

export {
  fileLinks,
  joinParts,
  maxBytesFor,
  mustBeTyped,
  readTextFile,
  splitInput,
  TEXT_FILE_TYPES,
} from './text/long-text.js';
export { SCRIPT_MAX } from './videos/create-request.js';

// Home: the App Home tab's cards and where a member's home conversation is.

export { homeCards, runsInDirectMessage } from './home/home.js';
export { homeConversation, homeOpened, rememberHomeConversation } from './home/home-refresh.js';

// The video API's vocabulary adapters show as choices.

export { PLATFORMS } from './video-api/video-api.js';

// Charts and tables: described once in the core, drawn natively by each adapter.

export {
  type Chart,
  type ChartLimits,
  chartHeading,
  chartPoints,
  chartText,
  fitChart,
} from './text/chart.js';
export {
  cellText,
  fitTable,
  fitTableLines,
  isNumberCell,
  type Table,
  type TableLimits,
} from './text/table.js';
