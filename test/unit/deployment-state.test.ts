/**
 * The deployment state machine against docs/contract.md §6.2 / §5.15, every state × action × kind. The expected table is
 * written from the contract's text, not derived from the implementation.
 */
import { describe, expect, it } from 'vitest';
import {
  availableActions, decide, DEPLOYMENT_ACTIONS, DEPLOYMENT_STATES, INVALID_ACTION_FOR_STATE, parseDeploymentAction,
  type DeploymentAction, type DeploymentDecision, type DeploymentKind, type DeploymentState,
} from '../../core/rules/deployment-state';

const KINDS: DeploymentKind[] = ['Connector', 'Ksml'];
const INVALID = `400 ${INVALID_ACTION_FOR_STATE}`;

/** Expected outcome per state and action for a Connector with a valid task id. */
const EXPECTED: Record<DeploymentState, Record<DeploymentAction, string>> = {
  Stopped: {
    START: '→ Running APPLICATION_STARTED', STOP: INVALID, RESTART: INVALID, RESET: '→ Stopped APPLICATION_RESET',
    RESTART_TASK: INVALID, VIEW_STATUS: 'view', VIEW_LOGS: 'view',
  },
  Running: {
    START: INVALID, STOP: '→ Stopped APPLICATION_STOPPED', RESTART: '→ Running APPLICATION_RESTARTED', RESET: INVALID,
    RESTART_TASK: '→ Running APPLICATION_RESTARTED {"taskId":0}', VIEW_STATUS: 'view', VIEW_LOGS: 'view',
  },
};

function render(d: DeploymentDecision): string {
  if (d.kind === 'move') return `→ ${d.to} ${d.audit}${d.details ? ` ${JSON.stringify(d.details)}` : ''}`;
  if (d.kind === 'view') return 'view';
  return `400 ${d.field ? `${d.field}: ` : ''}${d.message}`;
}

const cases = DEPLOYMENT_STATES.flatMap((s) => DEPLOYMENT_ACTIONS.flatMap((a) => KINDS.map((k) => [s, a, k] as const)));

describe('decide: every state × action × kind', () => {
  it.each(cases)('%s, %s on a %s', (state, action, kind) => {
    const expected = action === 'RESTART_TASK' && kind === 'Ksml' ? '400 action: RESTART_TASK applies to Connector deployments only' : EXPECTED[state][action];
    expect(render(decide(state, action, { kind, tasksMax: 1, taskId: 0 }))).toBe(expected);
  });

  it('a move names where it came from and what was asked', () => {
    expect(decide('Stopped', 'START', { kind: 'Ksml', tasksMax: 1 })).toEqual({ kind: 'move', action: 'START', from: 'Stopped', to: 'Running', audit: 'APPLICATION_STARTED' });
    expect(decide('Running', 'VIEW_LOGS', { kind: 'Ksml', tasksMax: 1 })).toEqual({ kind: 'view', action: 'VIEW_LOGS' });
  });

  it('an illegal pair refuses with the exact message the Terraform provider reads, naming no field', () => {
    expect(decide('Running', 'START', { kind: 'Connector', tasksMax: 1 })).toEqual({ kind: 'refused', message: 'Invalid action for this state of deployment' });
  });

  it('RESTART ignores a task id', () => {
    expect(decide('Running', 'RESTART', { kind: 'Connector', tasksMax: 1, taskId: 'x' })).toEqual({ kind: 'move', action: 'RESTART', from: 'Running', to: 'Running', audit: 'APPLICATION_RESTARTED' });
  });
});

describe('unknown actions', () => {
  it.each([['DEPLOY'], [''], [undefined], [null], [7], [['START']]])('%j is refused naming action', (action) => {
    const d = decide('Stopped', action, { kind: 'Connector', tasksMax: 1 });
    expect(d).toMatchObject({ kind: 'refused', field: 'action' });
    expect(d.kind === 'refused' && d.message).toMatch(/^Unknown action .*; expected one of START, STOP, RESTART, RESET, RESTART_TASK, VIEW_STATUS, VIEW_LOGS$/);
  });

  it('quotes the action it did not know', () => {
    const d = decide('Stopped', 'DEPLOY', { kind: 'Connector', tasksMax: 1 });
    expect(d.kind === 'refused' && d.message).toBe('Unknown action "DEPLOY"; expected one of START, STOP, RESTART, RESET, RESTART_TASK, VIEW_STATUS, VIEW_LOGS');
  });

  it.each([
    ['start', 'START'], ['Restart Task', 'RESTART_TASK'], ['restart-task', 'RESTART_TASK'], ['restartTask', 'RESTART_TASK'], ['view_status', 'VIEW_STATUS'], [' STOP ', 'STOP'],
  ])('matches %j as %s (case, spaces, _ and - ignored)', (value, action) => {
    expect(parseDeploymentAction(value)).toBe(action);
  });
});

describe('RESTART_TASK task ids', () => {
  const restart = (taskId: unknown, tasksMax = 3) => render(decide('Running', 'RESTART_TASK', { kind: 'Connector', tasksMax, taskId }));

  it.each([[0, 0], [2, 2], ['0', 0], ['2', 2]])('takes %j as task %d of tasks.max 3', (taskId, expected) => {
    expect(restart(taskId)).toBe(`→ Running APPLICATION_RESTARTED {"taskId":${expected}}`);
  });

  it.each([[3], [-1], [1.5], ['3'], ['-1'], ['01'], ['1.0'], [' 1'], [''], [null], [undefined], [Number.NaN], [true], [{}]])('refuses %j naming taskId', (taskId) => {
    expect(restart(taskId)).toMatch(/^400 taskId: taskId must be an integer from 0 to 2 \(tasks\.max is 3\); got /);
  });

  it('says what it got', () => {
    expect(restart(undefined)).toBe('400 taskId: taskId must be an integer from 0 to 2 (tasks.max is 3); got nothing');
    expect(restart('7')).toBe('400 taskId: taskId must be an integer from 0 to 2 (tasks.max is 3); got "7"');
    expect(restart(7)).toBe('400 taskId: taskId must be an integer from 0 to 2 (tasks.max is 3); got 7');
  });

  it('a single-task connector takes task 0 only, and a nonsensical tasks.max counts as 1', () => {
    expect(restart(0, 1)).toMatch(/^→ Running/);
    expect(restart(1, 1)).toMatch(/from 0 to 0 \(tasks\.max is 1\)/);
    expect(restart(1, Number.NaN)).toMatch(/from 0 to 0 \(tasks\.max is 1\)/);
    expect(restart(1, 0)).toMatch(/from 0 to 0 \(tasks\.max is 1\)/);
  });

  it('the state is judged before the task id, and the kind before the state', () => {
    expect(render(decide('Stopped', 'RESTART_TASK', { kind: 'Connector', tasksMax: 1, taskId: 9 }))).toBe(INVALID);
    expect(render(decide('Stopped', 'RESTART_TASK', { kind: 'Ksml', tasksMax: 1, taskId: 0 }))).toBe('400 action: RESTART_TASK applies to Connector deployments only');
  });
});

describe('availableActions (the action links)', () => {
  it.each([
    ['Stopped', 'Connector', ['start', 'reset']],
    ['Stopped', 'Ksml', ['start', 'reset']],
    ['Running', 'Connector', ['stop', 'restart', 'restartTask']],
    ['Running', 'Ksml', ['stop', 'restart']],
  ] as const)('%s %s → %j', (state, kind, rels) => {
    expect(availableActions(state, kind).map((l) => l.rel)).toEqual(rels);
  });

  it('pairs each link with the action its href carries, and offers exactly the moves decide allows', () => {
    expect(availableActions('Running', 'Connector')).toEqual([
      { rel: 'stop', action: 'STOP' }, { rel: 'restart', action: 'RESTART' }, { rel: 'restartTask', action: 'RESTART_TASK' },
    ]);
    for (const [state, , kind] of cases) {
      const moves = DEPLOYMENT_ACTIONS.filter((a) => decide(state, a, { kind, tasksMax: 1, taskId: 0 }).kind === 'move');
      expect(availableActions(state, kind).map((l) => l.action).sort()).toEqual([...moves].sort());
    }
  });
});
