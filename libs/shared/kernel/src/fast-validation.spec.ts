import { Expose, Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { compareValue, compareWithLibraries } from './testing/validation-comparison';
import { validateFast, type FastValidationOptions } from './fast-validation';

const MESSAGE: FastValidationOptions = { unknownProperties: 'strip', exposeDefaultValues: false };
const BODY: FastValidationOptions = { unknownProperties: 'refuse', exposeDefaultValues: true };

class Customer {
  @IsOptional()
  @IsString()
  @MaxLength(20)
  name?: string | null;
}

class Line {
  @IsInt()
  @Min(1)
  quantity!: number;
}

/** "Same as" another field: a rule that reads the object it is checked on. */
const SameAs = (other: string) =>
  ValidateBy({
    name: 'sameAs',
    constraints: [other],
    validator: {
      validate: (value, args) =>
        value === (args?.object as Record<string, unknown>)[args?.constraints[0] as string],
    },
  });

class Order {
  @IsInt()
  @Min(1)
  @Max(1000)
  amount!: number;

  @IsOptional()
  @IsIn(['wave', 'orange_money'])
  provider?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Customer)
  customer?: Customer;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => Line)
  lines?: Line[];

  @IsOptional()
  @IsString({ each: true })
  tags?: string[];

  @IsOptional()
  @IsObject()
  metadata?: Record<string, string>;

  @IsOptional()
  @SameAs('amount')
  confirm?: number;
}

class Page {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit: number = 20;
}

/** A field without rules but with a value: on every instance, so whitelisting removes it. */
class Internal {
  @IsInt()
  amount!: number;

  kind = 'internal';
}

class Untyped {
  @IsOptional()
  @ValidateNested()
  customer?: Customer;
}

class Transformed {
  @Transform(({ value }) => String(value).trim())
  @IsString()
  name!: string;
}

class Exposed {
  @Expose({ name: 'full_name' })
  @IsString()
  name!: string;
}

class Dated {
  @Type(() => Date)
  @IsOptional()
  at?: Date;
}

const order = {
  amount: 500,
  provider: 'wave',
  customer: { name: 'Awa' },
  lines: [{ quantity: 2 }, { quantity: 1 }],
  tags: ['a', 'b'],
  metadata: { cart: '42' },
  confirm: 500,
};

describe('validateFast', () => {
  it('builds the instance class-transformer would, nested classes included', () => {
    const payload = JSON.parse(JSON.stringify(order)) as typeof order;
    const valid = validateFast(Order, payload, MESSAGE);

    expect(valid).toBeInstanceOf(Order);
    expect(valid?.customer).toBeInstanceOf(Customer);
    expect(valid?.lines?.map((line) => line instanceof Line)).toEqual([true, true]);
    expect(valid).toEqual(order);
    expect(Object.getPrototypeOf(valid?.metadata)).toBe(Object.prototype);
    // A copy: neither the payload nor its nested objects are handed out or changed.
    expect(valid?.metadata).not.toBe(payload.metadata);
    expect(payload).toEqual(order);
  });

  it('leaves every failing payload to the libraries', () => {
    const broken: unknown[] = [
      { ...order, amount: 0 },
      { ...order, amount: '500' },
      { ...order, provider: 'cash' },
      { ...order, customer: { name: 'x'.repeat(21) } },
      { ...order, customer: 'Awa' },
      { ...order, lines: [{ quantity: 0 }] },
      { ...order, lines: [null] },
      { ...order, lines: [{}, {}, {}, {}] },
      { ...order, tags: ['a', 2] },
      { ...order, confirm: 499 },
      [],
      null,
      'order',
    ];
    for (const payload of broken) expect(validateFast(Order, payload, MESSAGE)).toBeUndefined();
  });

  it('strips properties no rule names, or refuses the payload, as configured', () => {
    expect(validateFast(Order, { amount: 5, extra: true }, MESSAGE)).toEqual({ amount: 5 });
    expect(validateFast(Order, { amount: 5, extra: true }, BODY)).toBeUndefined();
    expect(validateFast(Order, { amount: 5, customer: { name: 'A', x: 1 } }, BODY)).toBeUndefined();
    expect(validateFast(Internal, { amount: 5 }, MESSAGE)).toEqual({ amount: 5 });
    expect(validateFast(Internal, { amount: 5 }, BODY)).toBeUndefined();
    expect(validateFast(Order, { amount: 5, customer: { name: 'A', x: 1 } }, MESSAGE)).toEqual({
      amount: 5,
      customer: { name: 'A' },
    });
  });

  it('keeps a default for an absent value only with exposeDefaultValues', () => {
    expect(validateFast(Page, {}, BODY)).toEqual({ limit: 20 });
    expect(validateFast(Page, { limit: '5' }, BODY)).toEqual({ limit: 5 });
    expect(validateFast(Page, { limit: '0' }, BODY)).toBeUndefined();
    expect(validateFast(Page, {}, MESSAGE)?.limit).toBe(20);
  });

  it('takes the slow path for what it does not follow', () => {
    expect(validateFast(Untyped, { customer: { name: 'A' } }, MESSAGE)).toBeUndefined();
    expect(validateFast(Transformed, { name: ' A ' }, MESSAGE)).toBeUndefined();
    expect(validateFast(Exposed, { full_name: 'A' }, MESSAGE)).toBeUndefined();
    expect(validateFast(Dated, { at: '2026-11-22T10:00:00.000Z' }, MESSAGE)).toBeUndefined();
    expect(validateFast(Order, { amount: 5, metadata: new Map() }, MESSAGE)).toBeUndefined();
    expect(
      validateFast(Order, { amount: 5, metadata: { at: new Date(0) } }, MESSAGE),
    ).toBeUndefined();
    for (const json of [
      '{"amount":5,"__proto__":{"x":1}}',
      '{"amount":5,"constructor":"x"}',
      '{"amount":5,"metadata":{"toString":"x"}}',
    ]) {
      expect(validateFast(Order, JSON.parse(json), MESSAGE)).toBeUndefined();
    }
  });

  it('reads a class instance, as class-transformer does, by its own properties', () => {
    const customer = () => Object.assign(new Customer(), { name: 'Awa' });
    const made: Array<[new () => object, () => object]> = [
      [Order, () => Object.assign(new Order(), { amount: 5 })],
      [Order, () => ({ amount: 5, customer: customer() })],
      [Order, () => ({ amount: 5, lines: [Object.assign(new Line(), { quantity: 2 })] })],
      [Page, () => Object.assign(new Page(), { limit: 3 })],
    ];
    for (const [Class, make] of made) {
      expect(compareValue(Class, make, MESSAGE)).toBe('answered');
    }
    const valid = validateFast(Order, { amount: 5, customer: customer() }, MESSAGE);
    expect(valid?.customer).toBeInstanceOf(Customer);
    // Without a @Type, an instance would be copied as its own class: left to the libraries.
    expect(validateFast(Order, { amount: 5, metadata: customer() }, MESSAGE)).toBeUndefined();
  });

  it('sees the rules of a class defined after a first validation', () => {
    expect(validateFast(Order, { amount: 5 }, MESSAGE)).toEqual({ amount: 5 });
    class Later extends Order {
      @IsString()
      note!: string;
    }
    expect(validateFast(Later, { amount: 5 }, MESSAGE)).toBeUndefined();
    expect(validateFast(Later, { amount: 5, note: 'n' }, MESSAGE)).toEqual({
      amount: 5,
      note: 'n',
    });
  });

  it.each([
    ['Order', Order, [MESSAGE, BODY]],
    ['Customer', Customer, [MESSAGE, BODY]],
    ['Page', Page, [MESSAGE, BODY]],
    // Every Internal has a field without rules: a body always fails, a message never does.
    ['Internal', Internal, [MESSAGE]],
  ] as const)(
    'agrees with class-transformer and class-validator on generated %s payloads',
    (_, Class, modes) => {
      for (const options of modes) {
        const { answered, declined } = compareWithLibraries(Class, options, 300);
        expect(answered).toBeGreaterThan(50);
        expect(declined).toBeGreaterThan(10);
      }
    },
  );
});
