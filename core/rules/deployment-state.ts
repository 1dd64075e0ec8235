/**
 * The deployment state machine (docs/contract.md §6.2): data (the moves) plus one decision function. Pure: rights,
 * preconditions and config checks are the caller's; every refusal here answers 400 (§5.15), never 422.
 */
import { matchEnum } from './loose-enum';

export const DEPLOYMENT_STATES = ['Stopped', 'Running'] as const;
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];

export const DEPLOYMENT_ACTIONS = ['START', 'STOP', 'RESTART', 'RESET', 'RESTART_TASK', 'VIEW_STATUS', 'VIEW_LOGS'] as const;
export type DeploymentAction = (typeof DEPLOYMENT_ACTIONS)[number];

export type DeploymentKind = 'Connector' | 'Ksml';

/** The Terraform provider reads this exact text (§5.15). */
export const INVALID_ACTION_FOR_STATE = 'Invalid action for this state of deployment';

export type MoveAction = Exclude<DeploymentAction, 'VIEW_STATUS' | 'VIEW_LOGS'>;
interface Move { from: DeploymentState; to: DeploymentState; audit: string }

const MOVES: Record<MoveAction, Move> = {
  START: { from: 'Stopped', to: 'Running', audit: 'APPLICATION_STARTED' },
  // RESET rewinds the consumer offsets, which only a stopped deployment may have done to it.
  RESET: { from: 'Stopped', to: 'Stopped', audit: 'APPLICATION_RESET' },
  STOP: { from: 'Running', to: 'Stopped', audit: 'APPLICATION_STOPPED' },
  RESTART: { from: 'Running', to: 'Running', audit: 'APPLICATION_RESTARTED' },
  RESTART_TASK: { from: 'Running', to: 'Running', audit: 'APPLICATION_RESTARTED' },
};

/** Link relations of the action links, in the order they are listed. */
export const ACTION_RELS: Record<MoveAction, string> = { START: 'start', STOP: 'stop', RESTART: 'restart', RESET: 'reset', RESTART_TASK: 'restartTask' };

export interface OperationTarget {
  kind: DeploymentKind;
  /** The connector's `tasks.max` (see deployment-config-rules `tasksMax`); ignored for Ksml. */
  tasksMax: number;
  /** RESTART_TASK's task, from the body or the query: an integer, or a string of digits. */
  taskId?: unknown;
}

export type DeploymentDecision =
  | { kind: 'move'; action: MoveAction; from: DeploymentState; to: DeploymentState; audit: string; details?: { taskId: number } }
  | { kind: 'view'; action: 'VIEW_STATUS' | 'VIEW_LOGS' }
  | { kind: 'refused'; field?: 'action' | 'taskId'; message: string };

/** The action named by `value`, matched as every enum is (§4.3: case, spaces, `_` and `-` ignored), or undefined. */
export function parseDeploymentAction(value: unknown): DeploymentAction | undefined {
  return matchEnum(DEPLOYMENT_ACTIONS, value);
}

/**
 * What `action` does to a deployment in `state`. Order: unknown action, an action the kind has not got, the state,
 * then the task id — so a stopped connector asked to restart a task hears about its state first.
 */
export function decide(state: DeploymentState, requested: unknown, target: OperationTarget): DeploymentDecision {
  const action = parseDeploymentAction(requested);
  if (!action) return { kind: 'refused', field: 'action', message: `Unknown action ${shown(requested)}; expected one of ${DEPLOYMENT_ACTIONS.join(', ')}` };
  if (action === 'VIEW_STATUS' || action === 'VIEW_LOGS') return { kind: 'view', action };
  if (action === 'RESTART_TASK' && target.kind !== 'Connector') {
    return { kind: 'refused', field: 'action', message: 'RESTART_TASK applies to Connector deployments only' };
  }
  const move = MOVES[action];
  if (move.from !== state) return { kind: 'refused', message: INVALID_ACTION_FOR_STATE };
  if (action !== 'RESTART_TASK') return { kind: 'move', action, ...move };

  const taskId = readTaskId(target.taskId);
  const tasksMax = Number.isFinite(target.tasksMax) && target.tasksMax >= 1 ? Math.floor(target.tasksMax) : 1;
  if (taskId === undefined || taskId >= tasksMax) {
    return { kind: 'refused', field: 'taskId', message: `taskId must be an integer from 0 to ${tasksMax - 1} (tasks.max is ${tasksMax}); got ${shown(target.taskId)}` };
  }
  return { kind: 'move', action, ...move, details: { taskId } };
}

/** The operations a deployment in `state` offers (its action links); views are always there and not listed. */
export function availableActions(state: DeploymentState, kind: DeploymentKind): Array<{ rel: string; action: MoveAction }> {
  return (Object.keys(ACTION_RELS) as MoveAction[])
    .filter((a) => MOVES[a].from === state && (a !== 'RESTART_TASK' || kind === 'Connector'))
    .map((action) => ({ rel: ACTION_RELS[action], action }));
}

function readTaskId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^(0|[1-9][0-9]{0,8})$/.test(value)) return Number(value);
  return undefined;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
