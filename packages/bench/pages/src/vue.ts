/** The rendering benchmark with the Vue binding (HTTP source), in render functions (no SFC compiler needed). */
import { createApp, defineComponent, h, onUpdated, type PropType } from 'vue';
import { useLoushoAgent } from '@lousho/build-ai-agent/vue';
import { installHarness, state, textOf, TRANSCRIPT_MESSAGES, type BenchMessage } from './harness-core.js';

const params = new URLSearchParams(location.search);
let latest: ReturnType<typeof useLoushoAgent> | undefined;

const harness = installHarness({
  messages: () => (latest?.messages.value ?? []) as readonly BenchMessage[],
  idle: () => latest?.status.value === 'idle',
  send: (text) => void latest!.send(text),
  transcriptLength: TRANSCRIPT_MESSAGES,
  expectedLength: Number(params.get('expected')),
});

/** One message: Vue renders it again only when its `message` prop is a new object. */
const MessageView = defineComponent({
  props: { message: { type: Object as PropType<BenchMessage>, required: true } },
  setup(props) {
    return () => {
      state.renders.set(props.message.id, (state.renders.get(props.message.id) ?? 0) + 1);
      return h('div', { class: `msg ${props.message.role}`, 'data-id': props.message.id }, [h('b', props.message.role), h('p', textOf(props.message))]);
    };
  },
});

const App = defineComponent({
  setup() {
    const chat = useLoushoAgent({ url: '/api/lousho', sessionId: 'bench' });
    latest = chat;
    // An update of the list component is the Vue counterpart of a React commit.
    onUpdated(() => {
      state.commits++;
      harness.notify();
    });
    return () => h('div', (chat.messages.value as readonly BenchMessage[]).map((message) => h(MessageView, { key: message.id, message })));
  },
});

createApp(App).mount('#root');
// The first render is not an update: tell the harness the transcript may be there.
setInterval(() => harness.notify(), 50);
