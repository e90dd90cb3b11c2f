import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as root from '@lousho/build-ai-agent';
import * as channels from '@lousho/node';
import * as node from '@lousho/build-ai-agent/node';
import * as triggers from '@lousho/build-ai-agent/triggers';
import * as mcpEntry from '@lousho/build-ai-agent/mcp';
import * as mcpPackage from '@lousho/mcp';
import * as agUi from '@lousho/build-ai-agent/ag-ui';
import * as agUiPackage from '@lousho/ag-ui';

describe('entries of the triggers, channels and deployment work', () => {
  it('the root exports channels and the deployment registry', () => {
    for (const name of ['defineChannel', 'mountChannels', 'httpChannel', 'webhookChannel', 'registerAdapter', 'getAdapter', 'listAdapters']) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('/node exports the Node adapter of the HTTP handler, and the http tool\'s Node transport', () => {
    expect(typeof node.toNodeHandler).toBe('function');
    expect(typeof node.createNodeListener).toBe('function');
    expect(typeof node.createNodeHttpTransport).toBe('function');
  });

  it('/mcp exports serveMcp (an agent as an MCP server) next to the MCP client', () => {
    expect(typeof mcpEntry.serveMcp).toBe('function');
    expect(mcpEntry.serveMcp).toBe(mcpPackage.serveMcp);
    expect(typeof mcpEntry.connectMcp).toBe('function');
  });

  it('/triggers exports the adapters', () => {
    for (const name of ['WebhookTriggerAdapter', 'SlackTriggerAdapter', 'CronTriggerAdapter', 'verifySlackSignature', 'parseCronExpression', 'CronExpressionError', 'slackChannel']) {
      expect(typeof (triggers as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('/ag-ui exports the AG-UI and useChat handlers and their mapping tables, the same as @lousho/ag-ui', () => {
    expect(typeof agUi.createAgUiHandler).toBe('function');
    expect(agUi.createAgUiHandler).toBe(agUiPackage.createAgUiHandler);
    expect(typeof agUi.AgUiMapper).toBe('function');
    expect(agUi.AG_UI_EVENT_MAP['text.delta']).toEqual(['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT']);
    expect(typeof agUi.interruptOf).toBe('function');
    expect(agUi.createAiSdkHandler).toBe(agUiPackage.createAiSdkHandler);
    expect(agUi.AI_SDK_CHUNK_MAP['tool.call']).toEqual(['tool-input-available']);
  });

  // Channels come from @lousho/node's root, the registry from core's root; the package root (MCP included) must bundle for workers too.
  it.each([['core', '../../core/src/index.ts'], ['@lousho/node', '../../node/src/index.ts'], ['@lousho/tools', '../../tools/src/index.ts'], ['@lousho/build-ai-agent', '../src/index.ts']])("%s's root entry bundles for browsers and workers: no Node built-in is reachable", async (_name, entry) => {
    expect(root.mountChannels).toBe(channels.mountChannels);
    expect(root.webhookChannel).toBe(channels.webhookChannel);
    const result = await build({
      entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
      bundle: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
      platform: 'browser',
      format: 'esm',
      conditions: ['@lousho/source', 'workerd', 'worker', 'browser'],
    });
    const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
    expect(imports.filter((path) => path.startsWith('node:'))).toEqual([]);
  });

  it('the lousho bin of this package runs the CLI', async () => {
    const tsx = fileURLToPath(new URL('../../core/node_modules/.bin/tsx', import.meta.url));
    const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(tsx, ['--conditions=@lousho/source', bin, 'build', '--help']);
    expect(stdout).toMatch(/Usage: lousho build/);
    expect(stdout).toMatch(/docker\s+A Docker build context/);
  }, 30_000);
});
