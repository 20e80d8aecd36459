import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { DomainError } from '@xaalis/kernel';
import { createValidationPipe } from './validation-pipe';
import { IsPhone } from './validators';

class LineDto {
  @IsInt()
  @Min(1)
  quantity!: number;
}

class CustomerDto {
  @IsPhone()
  phone!: string;
}

class OrderDto {
  @IsInt()
  amount!: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerDto)
  customer?: CustomerDto;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => LineDto)
  lines?: LineDto[];

  @IsOptional()
  @IsString()
  @Length(2, 10)
  note?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  @IsString({ each: true })
  tags?: string[];
}

class BoundedDto {
  @IsInt()
  @Min(1)
  @Max(100)
  amount!: number;
}

const pipe = createValidationPipe();
const asBody = { type: 'body' as const, metatype: OrderDto, data: undefined };

async function failure(value: unknown): Promise<DomainError> {
  try {
    await pipe.transform(value, asBody);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('createValidationPipe', () => {
  it('returns a DTO instance for a valid body', async () => {
    const value = await pipe.transform(
      { amount: 100, customer: { phone: '+221771234567' } },
      asBody,
    );
    expect(value).toBeInstanceOf(OrderDto);
    expect((value as OrderDto).customer).toBeInstanceOf(CustomerDto);
  });

  it('names nested fields and array items by JSON path', async () => {
    const error = await failure({
      amount: 1,
      customer: { phone: '+33612345678' },
      lines: [{ quantity: 1 }, { quantity: 0 }],
    });
    expect(error.code).toBe('validation_error');
    expect(error.details).toEqual([
      {
        field: 'customer.phone',
        issue: 'must be a Senegalese mobile number: +2217 followed by 8 digits',
      },
      { field: 'lines[1].quantity', issue: 'must be at least 1' },
    ]);
    expect(error.message).toBe('Invalid request: customer.phone, lines[1].quantity.');
  });

  it('does not convert JSON types: "100" is not an integer', async () => {
    const error = await failure({ amount: '100' });
    expect(error.details).toEqual([{ field: 'amount', issue: 'must be an integer' }]);
  });

  it('says only the type a value of the wrong type must have, not the bounds of that type', async () => {
    const bounded = { type: 'body' as const, metatype: BoundedDto, data: undefined };
    const wrongType = await pipe.transform({ amount: '100' }, bounded).catch((error) => error);
    expect(wrongType.details).toEqual([{ field: 'amount', issue: 'must be an integer' }]);
    const outOfBounds = await pipe.transform({ amount: 101 }, bounded).catch((error) => error);
    expect(outOfBounds.details).toEqual([{ field: 'amount', issue: 'must be at most 100' }]);
    const tags = await failure({ amount: 1, tags: 'one' });
    expect(tags.details).toEqual([{ field: 'tags', issue: 'must be an array' }]);
  });

  it('says a missing field is required', async () => {
    const error = await failure({ customer: {} });
    expect(error.details).toEqual([
      { field: 'amount', issue: 'is required' },
      { field: 'customer.phone', issue: 'is required' },
    ]);
    expect(error.message).toBe('Invalid request: amount, customer.phone.');
  });

  it('words lengths and sizes plainly', async () => {
    const short = await failure({ amount: 1, note: 'a', tags: [] });
    expect(short.details).toEqual([
      { field: 'note', issue: 'must be at least 2 characters' },
      { field: 'tags', issue: 'must have at least 1 item' },
    ]);
    const long = await failure({ amount: 1, note: 'a'.repeat(11), tags: ['a', 'b', 'c'] });
    expect(long.details).toEqual([
      { field: 'note', issue: 'must be at most 10 characters' },
      { field: 'tags', issue: 'must have at most 2 items' },
    ]);
    const items = await failure({ amount: 1, tags: ['a', 7] });
    expect(items.details).toEqual([{ field: 'tags', issue: 'each item must be a string' }]);
  });

  it('refuses unknown fields, nested ones included', async () => {
    const error = await failure({
      amount: 1,
      role: 'admin',
      customer: { phone: '+221771234567', vip: true },
    });
    expect(error.details).toEqual([
      { field: 'role', issue: 'is not an allowed field' },
      { field: 'customer.vip', issue: 'is not an allowed field' },
    ]);
  });

  it('says an object was expected where a scalar came', async () => {
    const error = await failure({ amount: 1, customer: 'me', lines: 'many' });
    expect(error.details).toEqual([
      { field: 'customer', issue: 'must be an object' },
      { field: 'lines', issue: 'must be an array' },
    ]);
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const body of [[{ amount: 1 }], 'text', 42]) {
      const error = await failure(body);
      expect(error.message).toBe('The request body must be a JSON object.');
      expect(error.details).toBeUndefined();
    }
  });

  it('reports the required fields of a missing body', async () => {
    const error = await failure(undefined);
    expect(error.details).toEqual([{ field: 'amount', issue: 'is required' }]);
  });
});
