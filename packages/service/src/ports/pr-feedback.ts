// The pull-request feedback port: what a code host offers to put an analysis where developers
// look — a check run on the head commit (with annotations) and comments on the pull request.
// The GitHub adapter is code-hosts/github-pr-feedback.ts; the logic is services/pr-feedback.ts.

export interface CheckRunAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  title: string;
  message: string;
}

export interface CheckRunOutput {
  title: string;
  summary: string;
  annotations?: CheckRunAnnotation[];
}

export interface CheckRunState {
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?: 'success' | 'failure' | 'neutral' | 'action_required';
  external_id?: string;
  details_url?: string;
  output?: CheckRunOutput;
}

export interface CheckRun {
  id: number;
  name: string;
  headSha: string;
  status: string;
}

export interface IssueComment {
  id: number;
  body: string;
}

/** One repository's feedback calls; every failure is an Error whose name says whether retrying can help. */
export interface PullRequestFeedbackChannel {
  /** Check runs of that name on the commit (GitHub lists them per ref). */
  findCheckRuns(headSha: string, name: string): Promise<CheckRun[]>;
  createCheckRun(headSha: string, name: string, state: CheckRunState): Promise<CheckRun>;
  updateCheckRun(checkRunId: number, state: CheckRunState): Promise<void>;
  /** Every comment of the pull request's conversation, oldest first. */
  listComments(prNumber: number): Promise<IssueComment[]>;
  createComment(prNumber: number, body: string): Promise<IssueComment>;
  updateComment(commentId: number, body: string): Promise<void>;
}
