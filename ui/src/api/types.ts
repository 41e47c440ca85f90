// The IPC types, generated from Rust by ts-rs into ../bindings/ (never edit those).
// The rest of the UI imports them from here.

export type { AppError } from "../bindings/AppError";
export type { ChangeKind } from "../bindings/ChangeKind";
export type { ErrorCode } from "../bindings/ErrorCode";
export type { FileChange } from "../bindings/FileChange";
export type { FileContent } from "../bindings/FileContent";
export type { FileEntry } from "../bindings/FileEntry";
export type { Finding } from "../bindings/Finding";
export type { Frontmatter } from "../bindings/Frontmatter";
export type { ImportOutcome } from "../bindings/ImportOutcome";
export type { ImportRequest } from "../bindings/ImportRequest";
export type { ImportStatus } from "../bindings/ImportStatus";
export type { ImportedSkill } from "../bindings/ImportedSkill";
export type { JobEvent } from "../bindings/JobEvent";
export type { JobState } from "../bindings/JobState";
export type { ValidationSeverity as Severity } from "../bindings/ValidationSeverity";
export type { SkillDetail } from "../bindings/SkillDetail";
export type { SkillSummary } from "../bindings/SkillSummary";
export type { Source } from "../bindings/Source";
export type { SourceKind } from "../bindings/SourceKind";
export type { ValidationStatus } from "../bindings/ValidationStatus";
export type { VersionDetail } from "../bindings/VersionDetail";
export type { VersionDiff } from "../bindings/VersionDiff";
export type { VersionInfo } from "../bindings/VersionInfo";
export type { WorkspaceInfo } from "../bindings/WorkspaceInfo";
