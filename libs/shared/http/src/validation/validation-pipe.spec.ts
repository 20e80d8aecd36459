import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
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
  note?: string;
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
      { field: 'lines[1].quantity', issue: 'must not be less than 1' },
    ]);
    expect(error.message).toBe('Invalid request: customer.phone, lines[1].quantity.');
  });

  it('does not convert JSON types: "100" is not an integer', async () => {
    const error = await failure({ amount: '100' });
    expect(error.details).toEqual([{ field: 'amount', issue: 'must be an integer number' }]);
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
    expect(error.details).toEqual([{ field: 'amount', issue: 'must be an integer number' }]);
  });
});
