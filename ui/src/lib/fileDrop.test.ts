import { describe, expect, it } from "vitest";
import { acceptedDrop } from "./fileDrop";

describe("acceptedDrop", () => {
  it("takes the first path when any is accepted", () => {
    expect(acceptedDrop(["/a/skill", "/b.zip"])).toBe("/a/skill");
  });
  it("takes the first path with an accepted extension, case-insensitively", () => {
    expect(acceptedDrop(["/notes.txt", "/run/Trajectory.JSON"], ["json"])).toBe("/run/Trajectory.JSON");
  });
  it("takes nothing when nothing fits", () => {
    expect(acceptedDrop(["/notes.txt"], ["json"])).toBeNull();
    expect(acceptedDrop([])).toBeNull();
  });
});
