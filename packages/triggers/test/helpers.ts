import { createHmac } from 'node:crypto';
import { createAgent } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import type { TriggerLogger } from '../src/index.js';

export const agentReplying = (text = 'done') => createAgent({ provider: mockModel([text], { whenExhausted: 'repeat-last' }) });

export function memoryLogger(): TriggerLogger & { warnings: string[]; errors: string[] } {
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    warnings,
    errors,
    warn: (message, details) => warnings.push(details ? `${message} ${JSON.stringify(details)}` : message),
    error: (message, details) => errors.push(details ? `${message} ${JSON.stringify(details)}` : message),
  };
}

export function hmacHex(secret: string, payload: string | Buffer, algorithm: 'sha256' | 'sha1' = 'sha256'): string {
  return createHmac(algorithm, secret).update(payload).digest('hex');
}

export async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}
