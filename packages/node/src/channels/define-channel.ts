import { ERROR_CODES, SDKError } from '@lousho/core';
import type { Channel, ChannelDefinition } from './types.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Defines a surface people talk to the agent on (a chat app, a form, a webhook): how a request
 * becomes a message or a decision, and how replies and approvals go back. Mount channels with
 * `mountChannels()`; each conversation on the surface becomes one session.
 */
export function defineChannel(definition: ChannelDefinition): Channel {
  if (typeof definition !== 'object' || definition === null) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'defineChannel() needs a definition object.', { hint: 'Pass { name, receive(request), deliver?(outbound) }.' });
  }
  if (typeof definition.name !== 'string' || !NAME.test(definition.name)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Channel name ${JSON.stringify(definition.name)} is not usable.`, {
      hint: "Use letters, digits, '-' and '_' (it prefixes session ids), e.g. 'slack' or 'support-form'.",
    });
  }
  if (typeof definition.receive !== 'function') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Channel '${definition.name}' needs a receive(request) function.`, { hint: 'receive() turns a request into a message or a decision.' });
  }
  if (definition.deliver !== undefined && typeof definition.deliver !== 'function') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Channel '${definition.name}': deliver must be a function.`, { hint: 'deliver(outbound) sends replies and approvals back to the surface.' });
  }
  const path = normalizePath(definition.path ?? `/${definition.name}`);
  return Object.freeze({ ...definition, path });
}

function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
