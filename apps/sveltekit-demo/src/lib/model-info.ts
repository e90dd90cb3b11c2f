import { DEMO_MODEL_ID, DEMO_MODEL_NOTICE, DEMO_PROVIDER_NAME } from '@lousho/demo-agent';

/** Which model answers, as the page shows it. */
export interface ModelInfo {
  kind: 'demo' | 'real';
  provider: string;
  model: string;
  /** One line for the UI. */
  notice: string;
}

/** In the page it is always the offline demo model. */
export const IN_PAGE_MODEL: ModelInfo = { kind: 'demo', provider: DEMO_PROVIDER_NAME, model: DEMO_MODEL_ID, notice: DEMO_MODEL_NOTICE };
