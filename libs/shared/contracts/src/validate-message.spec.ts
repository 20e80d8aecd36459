import { getMetadataStorage } from 'class-validator';
import { compareWithLibraries } from '@xaalis/kernel/testing';
import * as contracts from './index';
import { MESSAGE_RULES } from './validate-message';

const messageClasses = Object.entries(contracts).filter(
  (entry): entry is [string, new () => object] =>
    typeof entry[1] === 'function' &&
    getMetadataStorage().getTargetValidationMetadatas(entry[1], '', false, false).length > 0,
);

describe('validateMessage', () => {
  it('finds the contract classes', () => {
    expect(messageClasses.length).toBeGreaterThan(30);
  });

  it.each(messageClasses)(
    'takes the fast path exactly where class-validator accepts a %s',
    (_, Class) => {
      const { answered, declined } = compareWithLibraries(Class, MESSAGE_RULES, 150);
      expect(answered).toBeGreaterThan(0);
      expect(declined).toBeGreaterThan(0);
    },
  );
});
