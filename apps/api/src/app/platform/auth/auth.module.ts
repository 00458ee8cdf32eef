import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../config/app-config';
import { AuthCookies } from './auth-cookies';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { JwtAuthGuard } from './jwt-auth.guard';
import { LocalAuthGuard } from './local-auth.guard';
import { LocalStrategy } from './local.strategy';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';

/**
 * Accounts, password login (passport-local), JWT access tokens checked by `JwtAuthGuard` (the
 * global guard) and rotating refresh-token sessions.
 */
@Module({
  imports: [
    PassportModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: config.jwtKey,
        signOptions: { algorithm: 'HS256', expiresIn: config.accessTokenTtlSeconds },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    SessionsService,
    SessionsRepository,
    UsersRepository,
    AuthCookies,
    LocalStrategy,
    LocalAuthGuard,
    JwtAuthGuard,
  ],
  exports: [AuthCookies, JwtAuthGuard, SessionsService],
})
export class AuthModule {}
