/** A command's options read into its `/reel [group] sub` path, its values and the option being typed. */
import type { CommandPath } from '../inbound.js';

/** The option tree as both discord.js and the raw payload give it. */
export interface OptionNode {
  type: number;
  name: string;
  value?: unknown;
  focused?: boolean | undefined;
  options?: readonly OptionNode[] | undefined;
}

const SUBCOMMAND = 1;
const SUBCOMMAND_GROUP = 2;

export function walkOptions(command: string, nodes: readonly OptionNode[] | undefined) {
  const path: CommandPath = { command };
  const options: Record<string, string | number | boolean> = {};
  let focused: { name: string; value: string } | undefined;
  const visit = (list: readonly OptionNode[] | undefined) => {
    for (const node of list ?? []) {
      if (node.type === SUBCOMMAND_GROUP) {
        path.group = node.name;
        visit(node.options);
      } else if (node.type === SUBCOMMAND) {
        path.sub = node.name;
        visit(node.options);
      } else {
        if (node.focused) focused = { name: node.name, value: String(node.value ?? '') };
        else if (
          typeof node.value === 'string' ||
          typeof node.value === 'number' ||
          typeof node.value === 'boolean'
        ) {
          options[node.name] = node.value;
        }
      }
    }
  };
  visit(nodes);
  return { path, options, focused };
}
