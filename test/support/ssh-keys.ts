/** OpenSSH public keys made with ssh-keygen, and their fingerprints as `ssh-keygen -l -E md5` and `-E sha256` print them. */
export const SSH_KEYS = {
  rsa2048: {
    key: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDCiMC3jPFIPFO0ByUFmwUBeqJiHvXYUvTcCY2bzxj7A3DmyXSgdfp2fuMYn4K3ZUjAZeBSMAkVvK+wNnO4IDkaxOZZ4l5HwsGFxh8+4rOghnpm0qKOSMA2Mb2Mqr3ysib0Ye/5jNrK23RCtV0SCwvAJxcOUJokWCiyPqgkSeqmFzzBtTunFqL2ckrA1YGy30U1CzPaYyQKO1l6lkw6myNfMFrzqRuVd6Auat4F8je9PGjfzEkThRdePzL+ONxVDGGSVMtg1GZupKiY3FnRYIVBtz47xH0iON2aSq29F4n7qOwnqBsWFQKBddvHTIVZcagdOJNh5uNeddQ98N6THYGT alice@example.com',
    sha256: 'SHA256:hAmZ/Sfe0rPpobhoO3gAG8aHbH9l7QoGpBLbjMmpzIM',
    fingerprint: '86:d1:b3:87:7d:64:45:4b:45:d9:e8:1e:49:36:6f:6f',
    bits: 2048,
  },
  rsa2048b: {
    key: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQD30vPl6oSXR1z690ZmiF0yulwuomfy5KTGqsfC4VEpVG9dOEYWUkRJQW2qyOQQvIZf3Z0Qc1mjXxWwhdXJFQRIPuCGyY/jUwfElwuKhkNfsGU1GCAGmrrnAg+T8lbQuvdTfXmBw1XIksfo3QVuHnVY+6bTcVCNLKaNzkRJsvLEGmu+Zv+UMDlxmZspGoGRAF5HfSveRDNBLBdqA1k80mnvw4KJAmIUA+F6foUoahQ2HN/KvYSy9Wwt+e4efhCS9riw88GUNVtsqyzucIDXch3r6bRbLQq3O8+k08XzZSJnDlmolxo4ssUyMzuinnSGjPLpvQ3qC7Aa24HA32NTwE8v bob@example.com',
    sha256: 'SHA256:ufNYI3kGSHo+wvmus2xr8r64hR6IV9Lp85SgJ0HVwhU',
    fingerprint: 'd9:b6:64:5b:d5:4f:2b:74:e6:5b:6e:45:2a:98:1a:43',
    bits: 2048,
  },
  rsa1024: {
    key: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDyASMEBKWKz/rvMvMp85/0jrMX9zkmHrgomLPNjfzolN2Zi2HYXkcwK9I1HcLkaqVTFJOvQyzJNu1Di6aeZex36NK5ZXd8qqH4NlhQXa0c0TvwBfiFWnrTx7zygul3TUPIvo08KfNBas/C8M2f9cn5MT0UUGMTP6kA3rqR3YZwKw== old@example.com',
    sha256: 'SHA256:7g6W+f+lbIqKqwvdjgMNgl3gClPtsr2Sk824b5gs7ww',
    fingerprint: 'cd:3d:b7:c5:01:d6:2d:52:33:05:b8:b9:50:7d:04:ea',
    bits: 1024,
  },
  dsa: {
    key: 'ssh-dss AAAAB3NzaC1kc3MAAACBAPNZTL4V+tV0iKX4bDnm3lM8aa3sdx5BkQafhOveAQkl6gRRimdzIr+JBSYUNmYKciJcFTLuwG6mGmAVK7aXD7wIeyk6kzxUHWMs9qJyOxguwIO5liwCEKJw3KCcSbIuOvUrqEs1eqAve5LpOYV8VtSYIRQmpfQoIVsGFGk5ryLLAAAAFQCmM5ZnvnM2MLJGLLOFJyKqwclKGwAAAIEA09Fy2mjL8nMo/d3vUKRjFSYgeYZw7rDEoT3HSazwwYIcHOvmjyV6wfZ3XWbSWeeSevmVlhNMcW8xPbhTLM3rT0INLXW1egac7KHDCNoputkbxIdKq8PdT8egpFTOvF4AkIM8F4Ezt5hmCP85vKlkjGzVGU8dlgbRqz7wWbFTv6YAAACAcdFjOLqXrd/MIl7ql7nZj8D/nBGo05+1ZkCWCMO/o6niYZXJYd2Y0BFPyGaXQD2Is4/6bVTtcDzSvta4VtEvvDf7F9/lnU6MFrFG8GmrWW/RzXssq5DjFaG8u1cMIlfv/pLHyzpqdoJNTcxiSxYdioZOgu5Ss/jExzKdhKjjmhw= dsa@example.com',
    sha256: 'SHA256:4Tns3Unseh4CfV/8y9VLY5XH2M3Xyw8c4IGjXFQBjW8',
    fingerprint: '7f:43:dc:05:d7:2a:cd:8a:0e:a9:3e:5f:94:18:c7:33',
    bits: 1024,
  },
  ec256: {
    key: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBMqXSOEe5wj72Vz5k2V3QtZ9ud7XvgVyJSlUkCYDrbyccQY2F5ikdZy+9kGfn1yD/GorMubXw2qaDakIz14l7JQ= ec@example.com',
    sha256: 'SHA256:YQq5g/6iubeKHkZSu3ww+wd5jyuYBlUpzlBFKjY/Jx0',
    fingerprint: '27:d6:c6:da:0a:42:da:66:1c:ea:04:e0:88:7f:4c:0f',
    bits: 256,
  },
  ec384: {
    key: 'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBIlb9DHvnMBDJykMsp85GXwnsljVR8oOzMxGhBboU+HI0Lz/88MN6GnRZOXY4FB4ErqWIKdMJpHJBBdfFWZSzQQzBhxPgLb305CgMc6aRSGkIpA+iMzNCUdDaS8mM9/JgA== ec@example.com',
    sha256: 'SHA256:EV4wyDJztpDoxGwQn3V3ZbCXflfTsknQZsmlAkaAlAQ',
    fingerprint: '47:c2:af:82:30:e9:45:e6:22:fd:ac:f0:3f:c4:b6:a7',
    bits: 384,
  },
  ec521: {
    key: 'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAGkJCUatO4zojtL7NtDRg8H62YyVzJF3zt6dwhIn63bFsb6nDfQ9PSBvgPSVSALn7s+gDbKNtcrb2sXTbQ2tiuZhwDqOQZW8LgqGtdn9JpBh/v4g9eMlPu8jaYZ4aej/487LDkrsJww88yu6zODMBqaXUQH85vsAxDguW1dW5KfeNRfFA== ec@example.com',
    sha256: 'SHA256:k9CWvLcFldZkFYZrkICpmRg5EOUZV3sS8ySkwYxAbc4',
    fingerprint: 'e8:95:af:93:5f:06:26:e7:8b:bb:76:ad:7c:b0:70:3c',
    bits: 521,
  },
  ed25519: {
    key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEyEhIPRE6tpEi5nNSHMsmgRo4KJKRggVXS08NdNU9lV ed@example.com',
    sha256: 'SHA256:PzohMoEkHnZTFbTbrvvcOC2BR61+OZTA7RrrK8TlBZE',
    fingerprint: '63:6b:b1:a2:e9:d8:98:19:05:ae:47:25:4f:4d:72:f5',
    bits: 256,
  },
  ed25519b: {
    key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILtPZQdvDzDnr7rpimyLpmqYth2rmJvmk6ao6qqFUw+W ed2@example.com',
    sha256: 'SHA256:S3usZ1X0c/ebc8gzucosfBM/fTaFTYvmU4+IqSQVAR8',
    fingerprint: '14:44:d4:ef:0a:d4:60:cb:0f:5c:38:5b:d5:1b:6f:db',
    bits: 256,
  },
  ed25519c: {
    key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINBh3umlZaoTo29m3niUsbaRi1xwWRp+ZLIQJwEI2mw/ ed3@example.com',
    sha256: 'SHA256:A28cCRUq72TQ/7w1I+qXA7aqT3fHVHtX4uKMAb0+x68',
    fingerprint: '4c:5f:c2:d7:63:dd:38:5c:82:a6:df:43:7e:93:96:e7',
    bits: 256,
  },
};
