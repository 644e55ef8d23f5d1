/**
 * Card text a test writes as the core would (fixtures for renderers and fakes): the test vouches for it, as
 * `md` does for the core's own wording. Never used by src/.
 */
import type { CardText } from '../../src/core/index.js';

export const cardText = (text: string): CardText => text as CardText;
