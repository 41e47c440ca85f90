import { describe, expect, it } from "vitest";
import { ERROR_CODES as ALL_CODES, describeError, toAppError } from "./errors";

describe("describeError", () => {
  it("explains an unsafe archive and says nothing was imported", () => {
    const d = describeError({ code: "unsafe_archive", message: "entry '../evil' escapes the target folder" });
    expect(d.detail).toBe(
      "The archive was refused because it is unsafe: entry '../evil' escapes the target folder. Nothing was imported.",
    );
    expect(d.title).toBe("Unsafe archive");
  });

  it("does not double a trailing full stop from the back end", () => {
    expect(describeError({ code: "io", message: "permission denied." }).detail).toBe(
      "A file or folder could not be read or written: permission denied.",
    );
  });

  it.each(ALL_CODES)("gives %s a distinct title, the message and advice", (code) => {
    const d = describeError({ code, message: "MSG" });
    expect(d.detail).toContain("MSG");
    expect(d.action.length).toBeGreaterThan(10);
    const others = ALL_CODES.filter((c) => c !== code).map((c) => describeError({ code: c, message: "MSG" }).title);
    expect(others).not.toContain(d.title);
  });
});

describe("toAppError", () => {
  it("keeps a back-end error as it is", () => {
    expect(toAppError({ code: "git", message: "repository not found" })).toEqual({
      code: "git",
      message: "repository not found",
    });
  });

  it("treats an unknown code as internal but keeps the message", () => {
    expect(toAppError({ code: "teapot", message: "short and stout" })).toEqual({
      code: "internal",
      message: "short and stout",
    });
  });

  it("wraps strings (Tauri's own rejections) and Errors", () => {
    expect(toAppError("command list_skills not found")).toEqual({
      code: "internal",
      message: "command list_skills not found",
    });
    expect(toAppError(new TypeError("boom"))).toEqual({ code: "internal", message: "boom" });
  });
});
