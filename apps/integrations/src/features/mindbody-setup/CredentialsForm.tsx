import { useForm } from 'react-hook-form';
import { MESSAGES, type MindbodyCredentialsRequest } from '@grove/contracts';
import { useConnectMindbody } from './api/mindbody';
import { Alert, Button, TextField } from '@grove/web-ui';

/**
 * Stage 1 (docs/product.md#screens, docs/product.md#validation): Mindbody staff username, password and site ID, all required. A refused
 * login shows docs/product.md#errors's 'Invalid credentials provided'; other failures show the server's text.
 */
export function CredentialsForm() {
  const connect = useConnectMindbody();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<MindbodyCredentialsRequest>({
    defaultValues: { username: '', password: '', siteId: '' },
  });
  const required = {
    validate: (value: string) => value.trim() !== '' || MESSAGES.mindbodyInvalidCredentials,
  };

  const submit = handleSubmit(async (values) => {
    try {
      await connect.mutateAsync({
        username: values.username.trim(),
        password: values.password,
        siteId: values.siteId.trim(),
      });
    } catch {
      // Shown from the mutation's own error below.
    }
  });

  return (
    <form className="mb-form" onSubmit={submit} noValidate aria-describedby="mb-credentials-help">
      <p id="mb-credentials-help" className="g-muted mb-lead">
        Sign in with a Mindbody staff account that can see clients and contracts. Grove checks the
        login with Mindbody and keeps the password encrypted.
      </p>
      {connect.isError && <Alert>{connect.error.message}</Alert>}
      <TextField
        label="Username"
        autoComplete="username"
        {...register('username', required)}
        error={errors.username?.message}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        {...register('password', required)}
        error={errors.password?.message}
      />
      <TextField
        label="Site ID"
        inputMode="numeric"
        hint="Your Mindbody site number, e.g. -99 for the sandbox"
        {...register('siteId', required)}
        error={errors.siteId?.message}
      />
      <Button type="submit" busy={isSubmitting} className="mb-submit">
        Connect Mindbody
      </Button>
    </form>
  );
}
