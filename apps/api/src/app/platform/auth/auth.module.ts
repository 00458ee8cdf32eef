import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../config/app-config';
import { MailModule } from '../mail/mail.module';
import { LoginThrottle } from '../throttle/login-throttle';
import { AuthCookies } from './auth-cookies';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { JwtAuthGuard } from './jwt-auth.guard';
import { LocalAuthGuard } from './local-auth.guard';
import { LocalStrategy } from './local.strategy';
import { RoleLimitChecks } from './roles/role-limit-checks';
import { RoleGuard } from './roles/role.guard';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetRepository } from './password-reset.repository';
import { PendingSignupsRepository } from './pending-signups.repository';
import { PasswordResetService } from './password-reset.service';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { EmailVerificationController } from './email-verification/email-verification.controller';
import { EmailVerificationRepository } from './email-verification/email-verification.repository';
import { EmailVerificationService } from './email-verification/email-verification.service';
import { UsersRepository } from './users.repository';
import { PasskeysController } from './passkeys/passkeys.controller';
import { PasskeysRepository } from './passkeys/passkeys.repository';
import { PasskeysService } from './passkeys/passkeys.service';
import { SecondFactorController } from './second-factor/second-factor.controller';
import { SecondFactorGate } from './second-factor/second-factor.gate';
import { SecondFactorRepository } from './second-factor/second-factor.repository';
import { SecondFactorSignIn } from './second-factor/second-factor-sign-in.service';
import { SecondFactorService } from './second-factor/second-factor.service';

/**
 * Accounts, password login (passport-local; failed logins alone throttled, `LoginThrottle`), JWT
 * access tokens checked by `JwtAuthGuard` (the global guard), the role of every signed-in request
 * checked against the role table by `RoleGuard` (the next global guard but one: a second
 * factor the business requires is checked first by `SecondFactorGate`), rotating refresh-token sessions and
 * forgot password (reset links by email, `PasswordResetService`) and a second factor at sign-in
 * (an authenticator app and recovery codes, `SecondFactorService`), and passkeys (WebAuthn,
 * `PasskeysService`).
 */
@Module({
  imports: [
    PassportModule,
    MailModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: config.jwtKey,
        signOptions: { algorithm: 'HS256', expiresIn: config.accessTokenTtlSeconds },
      }),
    }),
  ],
  controllers: [
    AuthController,
    PasswordResetController,
    EmailVerificationController,
    SecondFactorController,
    PasskeysController,
  ],
  providers: [
    AuthService,
    SessionsService,
    SessionsRepository,
    UsersRepository,
    AuthCookies,
    LocalStrategy,
    LocalAuthGuard,
    LoginThrottle,
    JwtAuthGuard,
    RoleGuard,
    RoleLimitChecks,
    PasswordResetService,
    EmailVerificationService,
    EmailVerificationRepository,
    PasswordResetRepository,
    PendingSignupsRepository,
    SecondFactorService,
    SecondFactorRepository,
    SecondFactorSignIn,
    SecondFactorGate,
    PasskeysService,
    PasskeysRepository,
  ],
  exports: [
    AuthService,
    AuthCookies,
    JwtAuthGuard,
    RoleGuard,
    SecondFactorGate,
    RoleLimitChecks,
    SessionsService,
    PasswordResetService,
    LoginThrottle,
    PasskeysService,
  ],
})
export class AuthModule {}
