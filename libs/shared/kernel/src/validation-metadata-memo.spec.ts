import { getMetadataStorage, IsInt, IsString, Min, validateSync } from 'class-validator';
import { rememberValidationMetadata } from './validation-metadata-memo';

class Base {
  @IsString()
  name!: unknown;
}

const issues = (value: object) =>
  validateSync(value, { forbidUnknownValues: true }).flatMap((error) =>
    Object.keys(error.constraints ?? {}),
  );

describe('rememberValidationMetadata', () => {
  beforeAll(() => rememberValidationMetadata());

  it('answers the same lookup from memory', () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Base, '', true, false);
    const second = storage.getTargetValidationMetadatas(Base, '', true, false);

    expect(second).toBe(first);
    expect(first.map((rule) => rule.propertyName)).toEqual(['name']);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(second));
  });

  it('validates as before, and sees rules of classes defined after a first validation', () => {
    expect(issues(Object.assign(new Base(), { name: 3 }))).toEqual(['isString']);

    class Later extends Base {
      @IsInt()
      @Min(1)
      count!: unknown;
    }

    expect(issues(Object.assign(new Later(), { name: 'a', count: 0 }))).toEqual(['min']);
    expect(issues(Object.assign(new Later(), { name: 4, count: 2 }))).toEqual(['isString']);
    expect(issues(Object.assign(new Base(), { name: 'ok' }))).toEqual([]);
  });

  it('keeps the lookups of different options apart', () => {
    const storage = getMetadataStorage();
    const always = storage.getTargetValidationMetadatas(Base, '', true, false);
    const grouped = storage.getTargetValidationMetadatas(Base, '', false, false, ['admin']);

    expect(always).toHaveLength(1);
    expect(grouped).toHaveLength(0);
  });
});
