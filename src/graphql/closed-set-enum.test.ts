import 'reflect-metadata';
import { closedSetEnum, graphqlEnumName } from './closed-set-enum.js';

describe('closed-set enums', () => {
  it('keeps a REST value GraphQL can spell and maps one it cannot', () => {
    expect(graphqlEnumName('case_law')).toBe('case_law');
    expect(graphqlEnumName('user.erase')).toBe('user_erase');
    expect(graphqlEnumName('2fa')).toBe('_2fa');
    expect(graphqlEnumName('null')).toBe('_null');
  });

  it('hands the resolver the REST value, and refuses two values that would share a name', () => {
    expect(closedSetEnum('ClosedSetEnumTestAction', ['user.erase', 'feedback.status'], 'test')).toEqual({ user_erase: 'user.erase', feedback_status: 'feedback.status' });
    expect(() => closedSetEnum('ClosedSetEnumTestClash', ['a.b', 'a_b'], 'test')).toThrow('"a.b" and "a_b" both map to a_b');
  });
});
