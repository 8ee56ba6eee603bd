// Privacy requests in the customer detail view (issue 16): "Export data" downloads everything the shop
// holds on the customer (the server gathers every service's part into one JSON document); "Erase
// customer" opens a dialog that asks for the customer's email, typed again, and the reason, then erases
// the personal data in every service (figures stay). An erased customer shows when it was erased instead.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, UserX } from 'lucide-react';
import {
  customerErasureFormSchema,
  customerExportFileName,
  erasureReasonMax,
  type AdminCustomer,
  type CustomerErasureRequest,
} from '@shop/contracts';
import { Button, Field, Input, Modal, Textarea, toast } from '@shop/ui';
import { AdminApiError } from '../api.js';
import { zodResolver } from '../marketing/api.js';
import { customerKeys, downloadText, eraseCustomer, exportCustomer } from './api.js';
import { shortDate } from './format.js';

function EraseCustomerModal({ customer, onClose }: { customer: AdminCustomer; onClose: () => void }) {
  const client = useQueryClient();
  const [serverError, setServerError] = useState<string | undefined>();
  const form = useForm<CustomerErasureRequest>({
    resolver: zodResolver<CustomerErasureRequest>(customerErasureFormSchema(customer.email)),
    defaultValues: { confirmEmail: '', reason: '' },
  });
  const erase = useMutation({
    mutationFn: (values: CustomerErasureRequest) => eraseCustomer(customer.id, values),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: customerKeys.all });
      if (result.erased) toast.success(result.message);
      else toast.info(result.message);
      onClose();
    },
    onError: (error) =>
      setServerError(
        error instanceof AdminApiError && error.status > 0
          ? error.message
          : 'The customer could not be erased. Please try again.',
      ),
  });
  const { errors } = form.formState;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Erase Customer"
      description="Removes this customer's name, email, phone, addresses and messages from every part of the shop. Order totals and counts stay. This cannot be undone."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            form="erase-customer"
            variant="danger"
            loading={erase.isPending}
            loadingText="Erasing..."
          >
            Erase Customer
          </Button>
        </>
      }
    >
      <form
        id="erase-customer"
        className="grid gap-4"
        noValidate
        onSubmit={form.handleSubmit((values) => {
          setServerError(undefined);
          erase.mutate(values);
        })}
      >
        <Field
          label={`Type the customer's email (${customer.email}) to confirm`}
          required
          error={errors.confirmEmail?.message}
        >
          <Input {...form.register('confirmEmail')} type="email" autoComplete="off" spellCheck={false} />
        </Field>
        <Field
          label="Reason"
          required
          error={errors.reason?.message}
          hint="Kept in the audit record with your name and the time, e.g. the customer's request by email on a date."
        >
          <Textarea {...form.register('reason')} rows={3} maxLength={erasureReasonMax} />
        </Field>
        {serverError ? (
          <p role="alert" className="text-sm text-red-300">
            {serverError}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

export function PrivacyActions({ customer }: { customer: AdminCustomer }) {
  const [erasing, setErasing] = useState(false);
  const exportData = useMutation({
    mutationFn: () => exportCustomer(customer.id),
    onSuccess: (document) => {
      downloadText(
        customerExportFileName(customer.id, new Date(document.exportedAt)),
        `${JSON.stringify(document, null, 2)}\n`,
        'application/json',
      );
      toast.success('Customer data exported');
    },
    onError: (error) => toast.error(error instanceof Error ? error.message : 'The export failed. Please try again.'),
  });
  if (customer.erasedAt) {
    return (
      <p className="text-sm text-khaki-300" data-testid="customer-erased">
        Personal data erased on {shortDate(customer.erasedAt)}. Figures and order history are kept without name, email,
        phone or address.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap gap-2" data-testid="customer-privacy-actions">
      <Button
        variant="secondary"
        onClick={() => exportData.mutate()}
        loading={exportData.isPending}
        loadingText="Exporting..."
      >
        <Download aria-hidden="true" className="size-4" /> Export data
      </Button>
      <Button variant="danger" onClick={() => setErasing(true)}>
        <UserX aria-hidden="true" className="size-4" /> Erase customer
      </Button>
      {erasing ? <EraseCustomerModal customer={customer} onClose={() => setErasing(false)} /> : null}
    </div>
  );
}
