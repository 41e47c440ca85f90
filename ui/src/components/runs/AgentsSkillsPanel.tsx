import type { ReactNode } from "react";
import { listAgents, listSkills } from "../../bindings/commands";
import type { AgentConfig } from "../../bindings/AgentConfig";
import type { SkillSummary } from "../../bindings/SkillSummary";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";

type Props = {
  title: string;
  /** What is loading, for the loading and error states. */
  what: string;
  /** Whether the loaded agents and skills are enough to show `children`; otherwise `missing` is shown. */
  ready: (agents: AgentConfig[], skills: SkillSummary[]) => boolean;
  missing: ReactNode;
  children: (agents: AgentConfig[], skills: SkillSummary[]) => ReactNode;
};

/** A panel that loads the agent configurations and skills, then shows a form built on them. */
export function AgentsSkillsPanel({ title, what, ready, missing, children }: Props) {
  const [state, reload] = useAsync(() => Promise.all([listAgents(), listSkills()]), []);
  return (
    <section className="panel">
      <h2>{title}</h2>
      <AsyncView state={state} what={what} onRetry={reload}>
        {([agents, skills]) => (ready(agents, skills) ? children(agents, skills) : missing)}
      </AsyncView>
    </section>
  );
}
