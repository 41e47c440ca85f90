import { describe, expect, it } from "vitest";
import { parseTask, TASK_DEFAULTS, VERIFIER_KINDS } from "./taskForm";

const filled = {
  ...TASK_DEFAULTS,
  name: " Sum report ",
  instruction: "Write the sum of data.csv to report.txt\n",
  file_name: " data.csv ",
  file_contents: "n\n1\n2\n",
  verifier: 'test "$(cat report.txt)" = 3',
};

describe("write-a-task form", () => {
  it("builds the input with the one workspace file and the default image and timeouts", () => {
    expect(parseTask(filled)).toEqual({
      ok: true,
      value: {
        name: "Sum report",
        instruction: "Write the sum of data.csv to report.txt\n",
        files: [["data.csv", "n\n1\n2\n"]],
        verifier_command: 'test "$(cat report.txt)" = 3',
        verifier_kind: "exit_code",
        image: null,
        agent_timeout_secs: null,
        verifier_timeout_secs: null,
      },
    });
  });

  it("sends no file without a file name, a chosen image trimmed, and a verifier file as written", () => {
    const pytest = "def test_sum():\n    assert open('report.txt').read().strip() == '3'\n";
    const result = parseTask({
      ...filled,
      file_name: "",
      file_contents: "",
      verifier_kind: "pytest",
      verifier: pytest,
      image: " alpine:3 ",
    });
    expect(result.ok && result.value).toMatchObject({ files: [], verifier_kind: "pytest", verifier_command: pytest });
    expect(result.ok && result.value.image).toBe("alpine:3");
  });

  it("reports every missing part, contents without a file name and an image with spaces", () => {
    const result = parseTask({ ...TASK_DEFAULTS, verifier_kind: "json_score", file_contents: "x", image: "a b" });
    expect(result).toEqual({
      ok: false,
      problems: [
        "Give the task a name.",
        "Write the instruction for the agent.",
        "Name the workspace file, or clear its contents.",
        `Write the verifier: ${VERIFIER_KINDS.json_score.label}.`,
        "The image name cannot contain spaces.",
      ],
    });
  });
});
