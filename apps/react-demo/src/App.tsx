import { useMemo, useState } from 'react';
import { DEMO_MODEL_ID, DEMO_MODEL_NOTICE, DEMO_PROVIDER_NAME } from '@lousho/demo-agent';
import { Chat } from './components/Chat.tsx';
import { DemoNav } from './components/DemoNav.tsx';
import { TriageFlow } from './components/TriageFlow.tsx';
import { ViewSwitch } from './components/ViewSwitch.tsx';
import { ModeSwitch } from './components/ModeSwitch.tsx';
import { ModelNotice } from './components/ModelNotice.tsx';
import { ThreadSidebar } from './components/ThreadSidebar.tsx';
import { readMode, writeMode, type Mode } from './mode.ts';
import { useServerInfo, type ModelInfo } from './server-info.ts';
import { httpSource, inPageSource, triageHttpSource, triageInPageSource } from './sources.ts';
import { offersDemoSuggestions, readOpenedSession, readView, writeOpenedSession, writeView, type View } from '@lousho/demo-agent';

const OFFLINE_MODEL: ModelInfo = { kind: 'demo', provider: DEMO_PROVIDER_NAME, model: DEMO_MODEL_ID, notice: DEMO_MODEL_NOTICE };

export function App() {
  const [mode, setMode] = useState<Mode>(readMode);
  const [view, setView] = useState<View>(readView);
  const server = useServerInfo();
  // The thread in the URL (`?session=`) is the one the chat opens, so a reload shows it again; the
  // thread sidebar switches threads in the same chat (`open()`) and keeps the URL in step.
  const source = useMemo(() => {
    const opened = readOpenedSession();
    return { ...(mode === 'page' ? inPageSource() : httpSource()), ...(opened ? { sessionId: opened } : {}) };
  }, [mode]);
  const triageSource = useMemo(() => (mode === 'page' ? triageInPageSource() : triageHttpSource()), [mode]);

  const changeView = (next: View): void => {
    writeView(next);
    setView(next);
  };

  const changeMode = (next: Mode): void => {
    // The opened thread belongs to the mode left; the other mode shows its own.
    writeOpenedSession(undefined);
    writeMode(next);
    setMode(next);
  };

  // In the page it is always the offline demo model; the server says which model it uses.
  const model = mode === 'page' ? OFFLINE_MODEL : server.state === 'ready' ? server.model : undefined;

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <img className="brand-logo" src="/favicon.svg" alt="" width={28} height={28} />
          <span className="brand-name">Lousho</span>
          <span className="brand-sub">React demo</span>
        </div>
        <DemoNav current="react" />
        <ViewSwitch view={view} onChange={changeView} />
        <ModeSwitch mode={mode} onChange={changeMode} />
      </header>
      <ModelNotice model={model} mode={mode} serverUnreachable={mode === 'http' && server.state === 'unreachable'} onUsePage={() => changeMode('page')} />
      {/* A client per mode: each mode has its own session, restored when the mode comes back. */}
      {view === 'triage' ? (
        <TriageFlow key={`triage-${mode}`} source={triageSource} mode={mode} />
      ) : (
        <div className="workspace">
          <Chat key={mode} source={source} mode={mode} suggestions={offersDemoSuggestions(model)} sidebar={(agent) => <ThreadSidebar source={source} chat={agent} />} />
        </div>
      )}
    </div>
  );
}
