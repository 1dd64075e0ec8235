import { describe, expect, it } from 'vitest';
import { errorProblems } from '../../server/response-validator';
import { NotFoundError, ConflictError, HttpError, ServiceUnavailableError } from '../../core/errors';

describe('error answers checked against the document', () => {
  it('a declared 4xx with the ApiError body passes', () => {
    expect(errorProblems('getGroup', 404, new NotFoundError().toBody())).toEqual([]);
  });

  it('an undeclared 4xx is a problem', () => {
    expect(errorProblems('getGroup', 409, new ConflictError('name: already exists').toBody())).toEqual(['status 409 is not declared for getGroup']);
  });

  it('a body that is not ApiError is a problem', () => {
    expect(errorProblems('getGroup', 404, { status: 'NOT_FOUND' })).not.toEqual([]);
    expect(errorProblems('getGroup', 404, { ...new NotFoundError().toBody(), errors: 'one' })).not.toEqual([]);
  });

  it('an undeclared 5xx is the service failing, not a promise of the document', () => {
    expect(errorProblems('getGroup', 500, new HttpError(500, 'Internal server error').toBody())).toEqual([]);
    expect(errorProblems('getGroup', 503, new ServiceUnavailableError().toBody())).toEqual([]);
  });

  it('an unknown operation is a problem', () => {
    expect(errorProblems('noSuchOperation', 404, new NotFoundError().toBody())).toEqual(['operation noSuchOperation is not in the spec']);
  });
});
