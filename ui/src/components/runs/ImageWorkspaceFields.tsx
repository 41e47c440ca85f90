import { Field } from "../shared/Field";
import { PathPicker } from "../shared/PathPicker";

type Props = {
  /** Prefix of the data-testids: `<prefix>-image` and `<prefix>-workspace`. */
  testIdPrefix: string;
  image: string;
  workspace: string;
  onChange: (patch: { image?: string; workspace?: string }) => void;
  disabled: boolean;
  workspaceHint: string;
  imageHint?: string;
};

/** The container image and optional workspace folder of an agent run or experiment. */
export function ImageWorkspaceFields({
  testIdPrefix,
  image,
  workspace,
  onChange,
  disabled,
  workspaceHint,
  imageHint,
}: Props) {
  return (
    <>
      <Field
        label="Image"
        testId={`${testIdPrefix}-image`}
        value={image}
        onChange={(image) => onChange({ image })}
        required
        disabled={disabled}
        spellCheck={false}
        hint={imageHint}
      />
      <Field
        label="Workspace folder (optional)"
        testId={`${testIdPrefix}-workspace`}
        className="mono"
        value={workspace}
        onChange={(workspace) => onChange({ workspace })}
        placeholder="/path/on/this/computer"
        disabled={disabled}
        spellCheck={false}
        hint={workspaceHint}
      />
      <PathPicker
        pick="folder"
        onPick={(workspace) => onChange({ workspace })}
        disabled={disabled}
        testId={`${testIdPrefix}-workspace-pick`}
      />
    </>
  );
}
