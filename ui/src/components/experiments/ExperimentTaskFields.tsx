import type { ExperimentFields } from "../../lib/experimentForm";
import { GLIBC_IMAGE } from "../../lib/agentRunForm";
import { ImageWorkspaceFields } from "../runs/ImageWorkspaceFields";
import { TextAreaField } from "../shared/TextAreaField";
import { TaskSourceSelect } from "./TaskSourceSelect";

type Props = {
  fields: ExperimentFields;
  onChange: (patch: Partial<ExperimentFields>) => void;
  disabled: boolean;
  /** A chosen CLI-harness configuration (Claude Code, Codex, OpenCode, Gemini CLI) runs the written tasks. */
  glibc: boolean;
};

/** Where the experiment's tasks come from: a stored set, or lines written here with their image and workspace. */
export function ExperimentTaskFields({ fields, onChange, disabled, glibc }: Props) {
  return (
    <>
      <TaskSourceSelect value={fields.task_set} onChange={(task_set) => onChange({ task_set })} disabled={disabled} />
      {/* A stored set carries its own tasks and environments. */}
      {fields.task_set === null && (
        <>
          <TextAreaField
            label="Tasks, one a line: id | instruction | verifier command"
            testId="experiment-tasks"
            className="mono"
            rows={4}
            value={fields.tasks}
            onChange={(tasks) => onChange({ tasks })}
            placeholder="hello | Write hello to out.txt | test -f out.txt"
            required
            disabled={disabled}
            spellCheck={false}
            hint="The verifier runs with sh -c; exit code 0 scores 1.0, anything else 0.0."
          />
          <div className="field-row">
            <ImageWorkspaceFields
              testIdPrefix="experiment"
              image={fields.image}
              workspace={fields.workspace}
              onChange={onChange}
              disabled={disabled}
              workspaceHint="Copied into every task's working directory before the agent starts."
              imageHint={
                glibc
                  ? `Claude Code, Codex, OpenCode and Gemini CLI need the Debian image (glibc, /bin/bash, ripgrep, libstdc++): the busybox default gives way to ${GLIBC_IMAGE}.`
                  : undefined
              }
            />
          </div>
        </>
      )}
    </>
  );
}
