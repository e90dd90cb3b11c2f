import { fileURLToPath } from 'node:url';
import { demoUrl, type DemoTarget } from 'e2e/kit';

export const VUE_DEMO_DIR = fileURLToPath(new URL('../', import.meta.url));

/** The Vue demo, served by the demo server at /vue/. */
export const vueDemo: DemoTarget = {
  label: 'vue-e2e',
  modes: ['http', 'page'],
  mcpNotes: true,
  sessionsPanel: true,
  threadSidebar: true,
  url: (mode, serverUrl) => demoUrl('/vue/', mode, serverUrl),
  screenshotsDir: fileURLToPath(new URL('../screenshots/', import.meta.url)),
};
