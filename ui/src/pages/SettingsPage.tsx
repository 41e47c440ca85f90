import { listAgents, listProviders, workspaceInfo } from "../bindings/commands";
import { AgentsSection } from "../components/settings/AgentsSection";
import { EngineSection } from "../components/settings/EngineSection";
import { HarnessesSection } from "../components/settings/HarnessesSection";
import { ProvidersSection } from "../components/settings/ProvidersSection";
import { RunSettingsSection } from "../components/settings/RunSettingsSection";
import { AsyncView } from "../components/shared/AsyncView";
import { useAsync } from "../lib/useAsync";

export function SettingsPage() {
  const [state, reload] = useAsync(workspaceInfo, []);
  const [providers, reloadProviders] = useAsync(listProviders, []);
  const [agents, reloadAgents] = useAsync(listAgents, []);
  const providerIds = providers.status === "ready" ? providers.data.map((p) => p.config.id) : [];
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
              <dd>
                <code>{info.home}</code>
              </dd>
              <dt>Database</dt>
              <dd>
                <code>{info.database}</code>
              </dd>
              <dt>Schema version</dt>
              <dd>{info.schema_version}</dd>
              <dt>Skills in library</dt>
              <dd>{info.skill_count}</dd>
            </dl>
          )}
        </AsyncView>
      </section>
      <EngineSection />
      <RunSettingsSection />
      <ProvidersSection state={providers} reload={reloadProviders} />
      <HarnessesSection />
      <AgentsSection state={agents} reload={reloadAgents} providerIds={providerIds} />
    </>
  );
}
