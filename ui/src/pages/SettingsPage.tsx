import { workspaceInfo } from "../api/commands";
import { AsyncView } from "../components/AsyncView";
import { NotBuiltNotice } from "../components/NotBuilt";
import { useAsync } from "../lib/useAsync";

export function SettingsPage() {
  const [state, reload] = useAsync(workspaceInfo, []);
  return (
    <>
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <section className="panel">
        <h2>Workspace</h2>
        <AsyncView state={state} what="workspace information" onRetry={reload}>
          {(info) => (
            <dl className="props" data-testid="workspace-info">
              <dt>Home folder</dt>
              <dd><code>{info.home}</code></dd>
              <dt>Database</dt>
              <dd><code>{info.database}</code></dd>
              <dt>Schema version</dt>
              <dd>{info.schema_version}</dd>
              <dt>Skills in library</dt>
              <dd>{info.skill_count}</dd>
            </dl>
          )}
        </AsyncView>
      </section>
      <section className="panel">
        <h2>Models and agents</h2>
        <NotBuiltNotice>
          This section will hold model credentials and the agent configurations used for evaluation runs.
        </NotBuiltNotice>
      </section>
    </>
  );
}
