/**
 * The rendering benchmark with the Svelte binding (HTTP source). `?derived=1` iterates over a
 * `$derived` copy of `$agent.messages` instead of the store value (see AppDerived.svelte).
 */
import { mount } from 'svelte';
import App from './App.svelte';
import AppDerived from './AppDerived.svelte';

const derived = new URLSearchParams(location.search).get('derived') === '1';
mount(derived ? AppDerived : App, { target: document.getElementById('root')! });
