// The IPC types, generated from Rust by ts-rs into ../bindings/ (never edit those).
// The rest of the UI imports them from here.

export type { AppError } from "../bindings/AppError";
export type { ChangeKind } from "../bindings/ChangeKind";
export type { Dimension } from "../bindings/Dimension";
export type { Dimensions } from "../bindings/Dimensions";
export type { ErrorCode } from "../bindings/ErrorCode";
export type { ExportFormat } from "../bindings/ExportFormat";
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
export type { QualityFinding } from "../bindings/QualityFinding";
export type { QualityReport } from "../bindings/QualityReport";
export type { ScanReport } from "../bindings/ScanReport";
// Two severity scales: validation findings (Severity) and static-review findings (ScanSeverity).
export type { Severity as ScanSeverity } from "../bindings/Severity";
export type { ScanSummary } from "../bindings/ScanSummary";
export type { SecurityFinding } from "../bindings/SecurityFinding";
export type { SecurityReport } from "../bindings/SecurityReport";
export type { SemanticPassInfo } from "../bindings/SemanticPassInfo";
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

export type { AttemptResult } from "../bindings/AttemptResult";
export type { Phases } from "../bindings/Phases";
export type { QueueEvent } from "../bindings/QueueEvent";
export type { QueueStatus } from "../bindings/QueueStatus";
export type { RunView } from "../bindings/RunView";
export type { SandboxRunRequest } from "../bindings/SandboxRunRequest";
export type { StateCounts } from "../bindings/StateCounts";
export type { TrialState } from "../bindings/TrialState";
export type { TrialView } from "../bindings/TrialView";

export type { AgentConfig } from "../bindings/AgentConfig";
export type { Harness } from "../bindings/Harness";
export type { HarnessStatus } from "../bindings/HarnessStatus";
export type { AgentLimits } from "../bindings/AgentLimits";
export type { AgentRunRequest } from "../bindings/AgentRunRequest";
export type { ApiKind } from "../bindings/ApiKind";
export type { ProviderConfig } from "../bindings/ProviderConfig";
export type { ProviderView } from "../bindings/ProviderView";
export type { StopReason } from "../bindings/StopReason";
export type { TrajectorySummary } from "../bindings/TrajectorySummary";
export type { TrajectoryPage } from "../bindings/TrajectoryPage";
export type { TrajectoryQuery } from "../bindings/TrajectoryQuery";
export type { ImportedTrajectory } from "../bindings/ImportedTrajectory";
export type { AtifViolation } from "../bindings/AtifViolation";
export type { PairAlignment } from "../bindings/PairAlignment";
export type { StepWindow } from "../bindings/StepWindow";
export type { WindowRequest } from "../bindings/WindowRequest";
export type { WindowStep } from "../bindings/WindowStep";

export type { AtifContent } from "../bindings/AtifContent";
export type { AtifMetrics } from "../bindings/AtifMetrics";
export type { AtifObservationResult } from "../bindings/AtifObservationResult";
export type { AtifStep } from "../bindings/AtifStep";
export type { AtifStepSource } from "../bindings/AtifStepSource";
export type { AtifToolCall } from "../bindings/AtifToolCall";

export type { ArmView } from "../bindings/ArmView";
export type { Condition } from "../bindings/Condition";
export type { ExperimentDesign } from "../bindings/ExperimentDesign";
export type { ExperimentResults } from "../bindings/ExperimentResults";
export type { ExperimentTask } from "../bindings/ExperimentTask";
export type { ExperimentView } from "../bindings/ExperimentView";
export type { PairView } from "../bindings/PairView";
export type { Provenance } from "../bindings/Provenance";
export type { StatsClass } from "../bindings/StatsClass";
export type { StatsReport } from "../bindings/StatsReport";
export type { StatsSummary } from "../bindings/StatsSummary";

export type { Decision } from "../bindings/Decision";
export type { EvidenceLink } from "../bindings/EvidenceLink";
export type { NewDecision } from "../bindings/NewDecision";
export type { ReportFormat } from "../bindings/ReportFormat";
export type { Verdict } from "../bindings/Verdict";

/** A chart of an experiment as the back end renders it: its title and an SVG document. */
export type Chart = [title: string, svg: string];
