import { demoLinks, type DemoName } from '@lousho/demo-agent';

/** Links to the other demos (the SvelteKit one runs on its own server: its link says how to start it). */
export function DemoNav({ current }: { current: DemoName }) {
  return (
    <nav className="demo-nav" aria-label="Demos">
      {demoLinks(current, window.location).map((link) =>
        link.current ? (
          <span key={link.name} className="demo-link is-current" aria-current="page">
            {link.label}
          </span>
        ) : (
          <a key={link.name} className="demo-link" href={link.href} title={`Started with ${link.hint}`}>
            {link.label}
          </a>
        ),
      )}
    </nav>
  );
}
