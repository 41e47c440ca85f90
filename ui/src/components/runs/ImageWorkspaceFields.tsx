import { Field } from "../shared/Field";
import { PathField } from "../shared/PathField";

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
      <PathField
        label="Workspace folder (optional)"
        testId={`${testIdPrefix}-workspace`}
        value={workspace}
        onChange={(workspace) => onChange({ workspace })}
        placeholder="/path/on/this/computer"
        disabled={disabled}
        hint={workspaceHint}
        pick="folder"
        pickTestId={`${testIdPrefix}-workspace-pick`}
      />
    </>
  );
}
