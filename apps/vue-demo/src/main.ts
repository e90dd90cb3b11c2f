import { createApp } from 'vue';
import App from './App.vue';
import '@lousho/demo-agent/styles.css';
import '@lousho/demo-agent/sessions-panel.css';
import '@lousho/demo-agent/thread-sidebar.css';

createApp(App).mount('#root');
