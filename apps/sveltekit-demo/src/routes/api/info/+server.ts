// What a client may know about this server: its model and where the webhook trigger listens (never
// its token). The same `triggers` field as the demo server's `GET /api/info`.
import { json } from '@sveltejs/kit';
import type { RequestHandler } from './$types';
import { modelInfo } from '$lib/server/agent';
import { triggersInfo } from '$lib/server/triggers';

export const GET: RequestHandler = () => {
  const triggers = triggersInfo();
  return json({ model: modelInfo, ...(triggers ? { triggers } : {}) }, { headers: { 'cache-control': 'no-store' } });
};
