import type { Response } from '../../../src/core/index.js';
import type { Surface } from '../present.js';
import type { ListenerContext } from './context.js';

/** Shows a response; a failure to reach Slack is logged (the user sees nothing, so it must be visible). */
export async function show(
  ctx: ListenerContext,
  answer: { response: Response; surface: Surface; what: string },
): Promise<void> {
  const { response, surface, what } = answer;
  try {
    await ctx.presenter.present(response, surface);
  } catch (error) {
    ctx.log.error({ err: error, what, kind: response.kind }, 'could not show the answer in Slack');
  }
}
