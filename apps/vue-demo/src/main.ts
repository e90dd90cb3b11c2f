import { createApp } from 'vue';
import App from './App.vue';
import '@lousho/demo-agent/styles.css';

createApp(App).mount('#root');
